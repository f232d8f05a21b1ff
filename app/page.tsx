import type { Metadata } from "next";
import { Suspense } from "react";
import { FleetView } from "@/components/fleet/fleet-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { getFleetSummary } from "@/lib/fleet/get-fleet-summary.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";

export const metadata: Metadata = { title: { absolute: "Fleet · gpufleet" } };

export default async function FleetPage() {
  const user = await requirePage("/");
  // the headline, groups and problem list in the HTML itself (from the same cached snapshot the
  // API serves, as this user's scope and role see it); the page refetches them once it runs
  let initial: FleetSummary | undefined;
  try {
    const s = await getFleetSummary({ scope: teamScope(user) });
    initial = roleAllows(user.role, "costs:read")
      ? s
      : { ...s, month: { ...s.month, budgetMicros: null } };
  } catch {
    initial = undefined; // the page fetches it and shows why it could not
  }
  return (
    <>
      <div className="page-title">
        <h1>Fleet</h1>
        <p>Every GPU now, refreshed every 15 s.</p>
      </div>
      <Suspense
        fallback={
          <p className="loading" role="status">
            Loading the fleet…
          </p>
        }
      >
        <FleetView canPrice={roleAllows(user.role, "pricing:write")} initialSummary={initial} />
      </Suspense>
    </>
  );
}
