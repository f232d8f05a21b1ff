import "server-only";
import { getMonthSpend } from "@/lib/spend/get-month-spend.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { cachedFleetFor, scopedFleetView } from "./fleet-cache.ts";
import { loadFleetSnapshot, usesDefaults, type FleetDeps } from "./load-fleet-snapshot.ts";

/**
 * Headline figures and the GPU grid of the fleet page (the process's cached snapshot); a
 * team-limited scope gets them over its teams' hosts only, with its team budget.
 */
export async function getFleetSummary(deps: FleetDeps): Promise<FleetSummary> {
  const scope = deps.scope;
  if (usesDefaults(deps)) {
    const { view, generatedAt, health } = await cachedFleetFor(scope);
    return { generatedAt, health, ...view.summary };
  }
  const snapshot = await loadFleetSnapshot(deps);
  const view = await scopedFleetView(snapshot, scope, (s) =>
    getMonthSpend({ client: deps.client, now: snapshot.now, scope: s }),
  );
  return { generatedAt: snapshot.now.toISOString(), health: snapshot.health, ...view.summary };
}
