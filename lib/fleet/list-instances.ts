import "server-only";
import type { InstanceList } from "@/lib/zod/schemas/instance.ts";
import { DEFAULT_TABLE_QUERY, type TableQuery } from "@/lib/zod/schemas/instance-query.ts";
import { loadFleetSnapshot, type FleetDeps } from "./load-fleet-snapshot.ts";
import { buildInstanceRows } from "./summarize.ts";
import { applyTableQuery } from "./table-state.ts";

/** The instance table: one row per host with live GPU figures and price, filtered and sorted. */
export async function listInstances(
  query: TableQuery = DEFAULT_TABLE_QUERY,
  deps: FleetDeps = {},
): Promise<InstanceList> {
  const snapshot = await loadFleetSnapshot(deps);
  const rows = buildInstanceRows(snapshot.hosts, snapshot.grid, snapshot.prices);
  return {
    generatedAt: snapshot.now.toISOString(),
    health: snapshot.health,
    total: rows.length,
    rows: applyTableQuery(rows, query),
  };
}
