import "server-only";
import { getMonthSpend } from "@/lib/costs/get-month-spend.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { cachedFleet, shapeFleetView } from "./fleet-cache.ts";
import { loadFleetSnapshot, usesDefaults, type FleetDeps } from "./load-fleet-snapshot.ts";

/** Headline figures and the GPU grid of the fleet page (the process's cached snapshot). */
export async function getFleetSummary(deps: FleetDeps = {}): Promise<FleetSummary> {
  if (usesDefaults(deps)) {
    const { view, generatedAt, health } = await cachedFleet();
    return { generatedAt, health, ...view.summary };
  }
  const snapshot = await loadFleetSnapshot(deps);
  const month = await getMonthSpend({ client: deps.client, now: snapshot.now });
  return {
    generatedAt: snapshot.now.toISOString(),
    health: snapshot.health,
    ...shapeFleetView(snapshot, month).summary,
  };
}
