import type { Metadata } from "next";
import { Suspense } from "react";
import { CostsView } from "@/components/costs/costs-view.tsx";

export const metadata: Metadata = { title: "Costs" };

export default function CostsPage() {
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading costs…
        </p>
      }
    >
      <CostsView />
    </Suspense>
  );
}
