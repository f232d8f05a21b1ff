import type { Metadata } from "next";
import { Suspense } from "react";
import { requirePage } from "@/lib/auth/page.ts";
import { PAGE_PERMISSIONS, roleAllows } from "@/lib/auth/roles.ts";
import { AlertsView } from "@/components/alerts/alerts-view.tsx";
import "@/components/alerts/alerting.css";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  const user = await requirePage("/alerts");
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading alerts…
        </p>
      }
    >
      <AlertsView settingsLink={roleAllows(user.role, PAGE_PERMISSIONS["/settings"])} />
    </Suspense>
  );
}
