import type { Metadata } from "next";
import { Suspense } from "react";
import { ReconcileView } from "@/components/costs/reconcile-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";

export const metadata: Metadata = { title: "Reconciliation" };

export default async function ReconcilePage() {
  await requirePage("/costs/reconcile");
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading the reconciliation…
        </p>
      }
    >
      <ReconcileView />
    </Suspense>
  );
}
