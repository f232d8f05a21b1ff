import "server-only";
import { scopeKey, type TeamScope } from "@/lib/auth/scope.ts";
import { getMonthSpend, type MonthSpend } from "@/lib/spend/get-month-spend.ts";
import { env } from "@/lib/env.ts";
import { yieldToLoop } from "@/lib/core/yield-to-loop.ts";
import type { SourceHealthDto } from "@/lib/zod/schemas/common.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import type { InstanceRow } from "@/lib/zod/schemas/instance.ts";
import { loadFleetSnapshot, staleAfterMs, type FleetSnapshot } from "./load-fleet-snapshot.ts";
import { scopeSnapshot } from "./scope-snapshot.ts";
import { createSnapshotCache, type CacheEntry, type SnapshotCache } from "./snapshot-cache.ts";
import { buildFleetIndexYielding, type FleetIndex } from "./overview.ts";
import { buildInstanceRows, summarizeFleet } from "./summarize.ts";

// The fleet as the API serves it, built once per collection interval in this process and shared
// by every request (fleet summary, instance table, instance page), so reads never queue on the
// metrics source. Only the default dependencies are cached; tests passing their own bypass it.

/** How long a failing source may be papered over with the last good snapshot. */
const KEEP_LAST_GOOD_MS = 5 * 60_000;

export interface FleetView {
  snapshot: FleetSnapshot;
  summary: Omit<FleetSummary, "generatedAt" | "health">;
  rows: InstanceRow[];
  /** the grid by group and the problem list, for /api/fleet/gpus pages */
  index: FleetIndex;
}

/**
 * The headline, groups, problem list, index and instance rows of a snapshot. Yields to the event
 * loop between the steps: at 100,000 GPUs each is hundreds of ms of synchronous work, and requests
 * served from the previous view should not wait for all of them at once.
 */
export async function shapeFleetView(
  snapshot: FleetSnapshot,
  month: MonthSpend,
): Promise<FleetView> {
  const headline = summarizeFleet(snapshot.hosts, snapshot.grid, snapshot.prices);
  await yieldToLoop();
  const index = await buildFleetIndexYielding(
    snapshot.hosts,
    snapshot.grid,
    snapshot.current,
    yieldToLoop,
  );
  await yieldToLoop();
  const rows = buildInstanceRows(snapshot.hosts, snapshot.grid, snapshot.prices);
  return { snapshot, summary: { ...headline, month, ...index.overview }, rows, index };
}

/**
 * Source health as of a cached entry, seen at `now`: a failed rebuild makes it not ok, and an
 * entry older than the staleness limit (rebuilds not landing) makes it stale.
 */
export function servedHealth(
  entry: CacheEntry<{ snapshot: Pick<FleetSnapshot, "health"> }>,
  now: number,
  staleMs: number,
): SourceHealthDto {
  const base = entry.value.snapshot.health;
  if (entry.error !== null) return { ...base, ok: false, error: entry.error, stale: true };
  return now - entry.at > staleMs ? { ...base, stale: true } : base;
}

/** Whether a snapshot whose source failed should replace `prev` (a recent good one is kept). */
export function replacesPrevious(
  next: Pick<FleetSnapshot, "sourceError">,
  prev: CacheEntry<FleetView> | null,
  now: number,
): boolean {
  if (next.sourceError === null || prev === null) return true;
  if (prev.value.snapshot.sourceError !== null) return true;
  return now - prev.at > KEEP_LAST_GOOD_MS;
}

const g = globalThis as unknown as { gpufleetFleetCache?: SnapshotCache<FleetView> };

function fleetCache(): SnapshotCache<FleetView> {
  // one per process: Next may evaluate this module once per route bundle
  g.gpufleetFleetCache ??= createSnapshotCache<FleetView>({
    refreshAfterMs: env.GPUFLEET_COLLECT_INTERVAL_S * 1000,
    maxStaleMs: 2 * env.GPUFLEET_COLLECT_INTERVAL_S * 1000,
    // yields between the steps: at 10,000 GPUs each is tens of ms of synchronous work, and
    // requests served from the previous snapshot should not wait for all of them
    load: async () => {
      const snapshot = await loadFleetSnapshot({ scope: null });
      const prev = g.gpufleetFleetCache?.peek() ?? null;
      if (!replacesPrevious(snapshot, prev, Date.now())) {
        throw new Error(snapshot.sourceError ?? "metrics source failed");
      }
      await yieldToLoop();
      // the shared, unscoped view: narrowed per caller in cachedFleetFor
      const month = await getMonthSpend({ now: snapshot.now, scope: null });
      await yieldToLoop();
      return shapeFleetView(snapshot, month);
    },
  });
  return g.gpufleetFleetCache;
}

/**
 * Rebuilds this process's fleet snapshot now (after a price change, so the burn rate follows at
 * once here; other replicas follow within a collection interval). Never throws.
 */
export async function refreshFleetSoon(): Promise<void> {
  await g.gpufleetFleetCache?.refresh().catch(() => undefined);
}

export interface ServedFleet {
  view: FleetView;
  generatedAt: string;
  health: SourceHealthDto;
}

/** The cached fleet, with its health as of now. */
export async function cachedFleet(): Promise<ServedFleet> {
  const entry = await fleetCache().get();
  return {
    view: entry.value,
    generatedAt: entry.value.snapshot.now.toISOString(),
    health: servedHealth(entry, Date.now(), staleAfterMs()),
  };
}

// Team-limited views of one cached snapshot, built once per snapshot and scope: filtering is cheap,
// but the scope's month-to-date spend is a ledger query. Dropped with the snapshot they came from.
const scopedViews = new WeakMap<FleetView, Map<string, Promise<FleetView>>>();

/** Builds the view `scope` sees of a snapshot: its hosts' figures and their ledger spend. */
export async function scopedFleetView(
  snapshot: FleetSnapshot,
  scope: TeamScope,
  month: (scope: TeamScope) => Promise<MonthSpend>,
): Promise<FleetView> {
  return shapeFleetView(scopeSnapshot(snapshot, scope), await month(scope));
}

/**
 * The cached fleet as `scope` sees it. Unlimited callers get the shared view itself; a limited
 * one gets it narrowed to their teams' hosts, memoised per snapshot.
 */
export async function cachedFleetFor(scope: TeamScope): Promise<ServedFleet> {
  const served = await cachedFleet();
  if (scope === null) return served;
  let byScope = scopedViews.get(served.view);
  if (!byScope) {
    byScope = new Map();
    scopedViews.set(served.view, byScope);
  }
  const key = scopeKey(scope);
  let view = byScope.get(key);
  if (!view) {
    const memo = byScope;
    view = scopedFleetView(served.view.snapshot, scope, (s) =>
      getMonthSpend({ now: served.view.snapshot.now, scope: s }),
    );
    memo.set(key, view);
    view.catch(() => memo.delete(key));
  }
  return { ...served, view: await view };
}

/**
 * Called by the collector after each tick: rebuilds at once so new samples show without waiting
 * for the next read, but only while someone is looking (read in the last two minutes).
 */
export function refreshFleetCacheIfWatched(now = Date.now()): void {
  const cache = g.gpufleetFleetCache;
  if (cache && now - cache.lastReadAt() < 120_000) cache.refresh().catch(() => undefined);
}
