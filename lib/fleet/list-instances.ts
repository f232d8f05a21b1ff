import "server-only";
import type { InstanceList } from "@/lib/zod/schemas/instance.ts";
import { DEFAULT_TABLE_QUERY, type TableQuery } from "@/lib/zod/schemas/instance-query.ts";
import { cachedFleetFor } from "./fleet-cache.ts";
import { loadFleetSnapshot, usesDefaults, type FleetDeps } from "./load-fleet-snapshot.ts";
import { scopeSnapshot } from "./scope-snapshot.ts";
import { buildInstanceRows } from "./summarize.ts";
import { applyTableQuery } from "./table-state.ts";

/**
 * The instance table: one row per host with live GPU figures and price, filtered and sorted; only
 * the hosts of a team-limited scope's teams.
 */
export async function listInstances(
  query: TableQuery = DEFAULT_TABLE_QUERY,
  deps: FleetDeps,
): Promise<InstanceList> {
  if (usesDefaults(deps)) {
    const { view, generatedAt, health } = await cachedFleetFor(deps.scope);
    return {
      generatedAt,
      health,
      total: view.rows.length,
      rows: applyTableQuery(view.rows, query),
    };
  }
  const snapshot = scopeSnapshot(await loadFleetSnapshot(deps), deps.scope);
  const rows = buildInstanceRows(snapshot.hosts, snapshot.grid, snapshot.prices);
  return {
    generatedAt: snapshot.now.toISOString(),
    health: snapshot.health,
    total: rows.length,
    rows: applyTableQuery(rows, query),
  };
}
