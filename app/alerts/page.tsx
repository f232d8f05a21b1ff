import type { Metadata } from "next";
import { Suspense } from "react";
import { requirePage } from "@/lib/auth/page.ts";
import { AlertsView } from "@/components/alerts/alerts-view.tsx";
import "@/components/alerts/alerting.css";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  await requirePage("/alerts");
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading alerts…
        </p>
      }
    >
      <AlertsView />
    </Suspense>
  );
}
