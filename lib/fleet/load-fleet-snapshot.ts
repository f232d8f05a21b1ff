import "server-only";
import { LIVE_HOSTS } from "../ingest/host-state.ts";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { env } from "@/lib/env.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import type { CurrentGpu, MetricsSource, SourceHealth } from "@/lib/metrics/source.ts";
import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import type { SourceHealthDto } from "@/lib/zod/schemas/common.ts";
import type { GridGpu } from "@/lib/zod/schemas/fleet.ts";
import { buildGrid } from "./grid.ts";
import { toHealthDto } from "./health.ts";
import { priceHosts } from "./host-prices.ts";
import { isVgpuGuest } from "./host-facts.ts";
import type { HostLike, PriceMap } from "./summarize.ts";

export interface FleetDeps {
  client?: Db;
  source?: MetricsSource;
  now?: Date;
  /** the teams the caller may see (lib/auth/scope.ts); null: every team */
  scope: TeamScope;
}

export interface FleetSnapshot {
  now: Date;
  hosts: HostLike[];
  current: CurrentGpu[];
  grid: GridGpu[];
  prices: PriceMap;
  health: SourceHealthDto;
  /** why the metrics source failed (current GPUs are then the stored inventory); null if it answered */
  sourceError: string | null;
}

/**
 * True when the caller passed no dependencies of its own: the process's shared cache applies
 * (a team scope narrows what is served from it, it does not bypass it).
 */
export function usesDefaults(deps: FleetDeps): boolean {
  return deps.client === undefined && deps.source === undefined && deps.now === undefined;
}

/** Data older than two scrape intervals (plus slack) is stale. */
export function staleAfterMs(): number {
  return 2 * env.GPUFLEET_COLLECT_INTERVAL_S * 1000 + 10_000;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The GPU inventory from the store, all marked not reporting: what we show when the source fails. */
async function inventoryOnly(client: Db): Promise<CurrentGpu[]> {
  const gpus = await client.gpu.findMany({ include: { host: { select: { hostname: true } } } });
  return gpus.map((g) => ({
    hostId: g.hostId,
    hostname: g.host.hostname,
    uuid: g.uuid,
    index: g.index,
    name: g.name,
    util: null,
    memUsedBytes: null,
    memTotalBytes: Number(g.memoryTotalBytes),
    powerWatts: null,
    tempCelsius: null,
    processes: null,
    lastSeen: g.lastSeen,
    reporting: false,
    parentUuid: g.parentUuid,
    migProfile: g.migProfile,
  }));
}

/** Each host with the number of its GPUs that are vGPU guests (virtualization mode VGPU). */
export function withVgpuGuests<H extends { id: string }>(
  hosts: readonly H[],
  gpus: readonly { hostId: string; virtualizationMode: string | null }[],
): (H & { vgpuGuests: number })[] {
  const count = new Map<string, number>();
  for (const g of gpus) {
    if (isVgpuGuest(g.virtualizationMode)) count.set(g.hostId, (count.get(g.hostId) ?? 0) + 1);
  }
  return hosts.map((h) => ({ ...h, vgpuGuests: count.get(h.id) ?? 0 }));
}

/** Everything the fleet page and the instance table need, read once. Never throws for the source. */
export async function loadFleetSnapshot(deps: FleetDeps): Promise<FleetSnapshot> {
  const client = deps.client ?? defaultDb;
  const source = deps.source ?? getMetricsSource();
  const now = deps.now ?? new Date();
  const [storedHosts, virtualized, priceRows, currentResult, healthResult] = await Promise.all([
    client.host.findMany({ where: LIVE_HOSTS, orderBy: { hostname: "asc" } }),
    client.gpu.findMany({
      where: { virtualizationMode: { not: null }, parentUuid: null },
      select: { hostId: true, virtualizationMode: true },
    }),
    loadPriceRows(client),
    source.currentGpus().then(
      (gpus) => ({ gpus, error: null }),
      (e: unknown) => ({ gpus: null, error: message(e) }),
    ),
    source
      .health()
      .catch((e: unknown): SourceHealth => ({ ok: false, lastSuccess: null, error: message(e) })),
  ]);
  const hosts = withVgpuGuests(storedHosts, virtualized);
  let health = healthResult;
  let current = currentResult.gpus;
  if (current === null) {
    current = await inventoryOnly(client);
    const lastSeen = hosts.reduce<Date | null>(
      (max, h) => (h.lastSeen && (!max || h.lastSeen > max) ? h.lastSeen : max),
      null,
    );
    health = { ok: false, lastSuccess: health.lastSuccess ?? lastSeen, error: currentResult.error };
  }
  const grid = buildGrid(current);
  return {
    now,
    hosts,
    current,
    grid,
    prices: priceHosts(hosts, priceRows, now),
    health: toHealthDto(health, source.mode, now.getTime(), staleAfterMs()),
    sourceError: currentResult.error,
  };
}
