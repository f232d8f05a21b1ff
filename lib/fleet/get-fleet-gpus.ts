import "server-only";
import type { FleetGpuPage, FleetGpuQuery } from "@/lib/zod/schemas/fleet.ts";
import { cachedFleetFor } from "./fleet-cache.ts";
import { loadFleetSnapshot, usesDefaults, type FleetDeps } from "./load-fleet-snapshot.ts";
import { buildFleetIndex, fleetGpuPage } from "./overview.ts";
import { scopeSnapshot } from "./scope-snapshot.ts";

/**
 * One page of the GPUs of a group (team, provider, model, state) or of the problem list, from the
 * same cached snapshot as the summary; a team-limited scope pages over its teams' hosts only.
 */
export async function getFleetGpuPage(q: FleetGpuQuery, deps: FleetDeps): Promise<FleetGpuPage> {
  if (usesDefaults(deps)) {
    const { view, generatedAt } = await cachedFleetFor(deps.scope);
    return { generatedAt, ...fleetGpuPage(view.index, q) };
  }
  const s = scopeSnapshot(await loadFleetSnapshot(deps), deps.scope);
  const index = buildFleetIndex(s.hosts, s.grid, s.current);
  return { generatedAt: s.now.toISOString(), ...fleetGpuPage(index, q) };
}
