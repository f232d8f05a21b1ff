import type { Metadata } from "next";
import { Suspense } from "react";
import { RecommendationsView } from "@/components/recommendations/recommendations-view.tsx";
import "@/components/alerts/alerting.css";

export const metadata: Metadata = { title: "Recommendations" };

export default function RecommendationsPage() {
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading recommendations…
        </p>
      }
    >
      <RecommendationsView />
    </Suspense>
  );
}
