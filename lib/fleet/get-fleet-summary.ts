import "server-only";
import { getMonthSpend } from "@/lib/costs/get-month-spend.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { loadFleetSnapshot, type FleetDeps } from "./load-fleet-snapshot.ts";
import { summarizeFleet } from "./summarize.ts";

/** Headline figures and the GPU grid of the fleet page. */
export async function getFleetSummary(deps: FleetDeps = {}): Promise<FleetSummary> {
  const snapshot = await loadFleetSnapshot(deps);
  const month = await getMonthSpend({ client: deps.client, now: snapshot.now });
  return {
    generatedAt: snapshot.now.toISOString(),
    health: snapshot.health,
    ...summarizeFleet(snapshot.hosts, snapshot.grid, snapshot.prices),
    month,
    grid: snapshot.grid,
  };
}
