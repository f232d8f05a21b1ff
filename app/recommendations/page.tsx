import type { Metadata } from "next";
import { Suspense } from "react";
import { requirePage } from "@/lib/auth/page.ts";
import { RecommendationsView } from "@/components/recommendations/recommendations-view.tsx";
import "@/components/alerts/alerting.css";

export const metadata: Metadata = { title: "Recommendations" };

export default async function RecommendationsPage() {
  await requirePage("/recommendations");
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
