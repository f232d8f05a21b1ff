import type { Metadata } from "next";
import { Suspense } from "react";
import { FleetView } from "@/components/fleet/fleet-view.tsx";

export const metadata: Metadata = { title: { absolute: "Fleet · gpufleet" } };

export default function FleetPage() {
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
        <FleetView />
      </Suspense>
    </>
  );
}
