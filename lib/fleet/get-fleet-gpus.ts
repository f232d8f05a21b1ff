import "server-only";
import type { FleetGpuPage, FleetGpuQuery } from "@/lib/zod/schemas/fleet.ts";
import { describeHolder, type Holder } from "@/lib/core/holders.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { cachedFleetFor } from "./fleet-cache.ts";
import { withGridHolders } from "./grid-holders.ts";
import { loadFleetSnapshot, usesDefaults, type FleetDeps } from "./load-fleet-snapshot.ts";
import { buildFleetIndex, fleetGpuPage } from "./overview.ts";
import { scopeSnapshot } from "./scope-snapshot.ts";

/**
 * One page of the GPUs of a group (team, provider, model, state) or of the problem list, from the
 * same cached snapshot as the summary; a team-limited scope pages over its teams' hosts only.
 * Each GPU names who holds it now, through `nameHolder` (pseudonyms for viewers where set).
 */
export async function getFleetGpuPage(
  q: FleetGpuQuery,
  deps: FleetDeps,
  nameHolder: (h: Holder) => string = describeHolder,
): Promise<FleetGpuPage> {
  const source = deps.source ?? getMetricsSource();
  if (usesDefaults(deps)) {
    const { view, generatedAt } = await cachedFleetFor(deps.scope);
    const page = fleetGpuPage(view.index, q);
    return { generatedAt, ...page, gpus: await withGridHolders(page.gpus, source, nameHolder) };
  }
  const s = scopeSnapshot(await loadFleetSnapshot(deps), deps.scope);
  const index = buildFleetIndex(s.hosts, s.grid, s.current);
  const page = fleetGpuPage(index, q);
  return {
    generatedAt: s.now.toISOString(),
    ...page,
    gpus: await withGridHolders(page.gpus, source, nameHolder),
  };
}
