import type { Metadata } from "next";
import { Suspense } from "react";
import { FleetView } from "@/components/fleet/fleet-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";

export const metadata: Metadata = { title: { absolute: "Fleet · gpufleet" } };

export default async function FleetPage() {
  const user = await requirePage("/");
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
        <FleetView canPrice={roleAllows(user.role, "pricing:write")} />
      </Suspense>
    </>
  );
}
