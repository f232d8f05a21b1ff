import type { Metadata } from "next";
import { Suspense } from "react";
import { AlertsView } from "@/components/alerts/alerts-view.tsx";
import "@/components/alerts/alerting.css";

export const metadata: Metadata = { title: "Alerts" };

export default function AlertsPage() {
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
