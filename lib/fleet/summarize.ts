import { divRoundHalfUp } from "@/lib/core/money.ts";
import type { FleetSummary, GridGpu } from "@/lib/zod/schemas/fleet.ts";
import type { HostState, InstanceRow } from "@/lib/zod/schemas/instance.ts";
import { isIdle } from "./classify-gpu.ts";

// Pure shaping of the fleet's current state into headline figures and table rows.

export interface HostLike {
  id: string;
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  state: string;
  lastSeen: Date | null;
  /** spot: the provider's reclaim notice is pending, and its announced time */
  interruptionPending?: boolean;
  interruptionAt?: Date | null;
  /** GPUs of the host whose virtualization mode is VGPU (lib/fleet/host-facts.ts isVgpuGuest) */
  vgpuGuests?: number;
}

export interface HostPrice {
  perHourMicros: bigint;
  currency: string;
  /** GPUs the catalogue says the instance has; used when the host reports none */
  gpuCount: number;
  /** "fallback (no <region> price)", or the CNY price and rate it was converted at */
  note?: string | null;
}

export type PriceMap = ReadonlyMap<string, HostPrice | null>;

export function toHostState(state: string): HostState {
  return state === "up" || state === "down" || state === "interrupted" ? state : "unknown";
}

/** One GPU's share of its host's hourly price (price ÷ GPUs, rounded to the micro). */
export function gpuShareMicros(price: HostPrice, gpusOnHost: number): bigint {
  const n = gpusOnHost > 0 ? gpusOnHost : Math.max(1, price.gpuCount);
  return divRoundHalfUp(price.perHourMicros, BigInt(n));
}

function gpusByHost(grid: readonly GridGpu[]): Map<string, GridGpu[]> {
  const map = new Map<string, GridGpu[]>();
  for (const g of grid) {
    const list = map.get(g.hostId);
    if (list) list.push(g);
    else map.set(g.hostId, [g]);
  }
  return map;
}

function hasUtil(g: GridGpu): g is GridGpu & { util: number } {
  return g.util !== null && g.status !== "not_reporting" && g.status !== "mig";
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

type Headline = Pick<FleetSummary, "hosts" | "gpus" | "utilMean" | "memory" | "burn" | "idle">;

export function summarizeFleet(
  hosts: readonly HostLike[],
  grid: readonly GridGpu[],
  prices: PriceMap,
): Headline {
  const byHost = gpusByHost(grid);
  const states = { up: 0, down: 0, unknown: 0 };
  let burn = 0n;
  let unpricedHosts = 0;
  let currency = "USD";
  for (const h of hosts) {
    const state = toHostState(h.state);
    // a reclaimed spot host is neither up nor down: it counts only in the total
    if (state === "interrupted") continue;
    states[state] += 1;
    if (state !== "up") continue;
    const price = prices.get(h.id) ?? null;
    if (price === null) unpricedHosts += 1;
    else {
      burn += price.perHourMicros;
      currency = price.currency;
    }
  }

  const reporting = grid.filter((g) => g.status !== "not_reporting");
  let idleCost = 0n;
  let heldIdle = 0;
  let emptyIdle = 0;
  for (const g of grid) {
    if (!isIdle(g.status)) continue;
    if (g.status === "held_idle") heldIdle += 1;
    else emptyIdle += 1;
    const price = prices.get(g.hostId) ?? null;
    if (price) idleCost += gpuShareMicros(price, byHost.get(g.hostId)?.length ?? 0);
  }

  return {
    hosts: { total: hosts.length, ...states },
    gpus: { known: grid.length, reporting: reporting.length },
    utilMean: mean(grid.filter(hasUtil).map((g) => g.util)),
    memory: {
      usedBytes: reporting.reduce((a, g) => a + (g.memUsedBytes ?? 0), 0),
      totalBytes: reporting.reduce((a, g) => a + (g.memTotalBytes ?? 0), 0),
    },
    burn: { perHourMicros: burn.toString(), currency, unpricedHosts },
    idle: {
      count: heldIdle + emptyIdle,
      heldIdle,
      emptyIdle,
      perHourMicros: idleCost.toString(),
    },
  };
}

/** One table row per host, with its GPUs' live figures and its catalogue price. */
export function buildInstanceRows(
  hosts: readonly HostLike[],
  grid: readonly GridGpu[],
  prices: PriceMap,
): InstanceRow[] {
  const byHost = gpusByHost(grid);
  return hosts.map((h) => {
    const gpus = byHost.get(h.id) ?? [];
    const reporting = gpus.filter((g) => g.status !== "not_reporting");
    const withMem = reporting.filter((g) => g.memUsedBytes !== null);
    const price = prices.get(h.id) ?? null;
    return {
      id: h.id,
      hostname: h.hostname,
      provider: h.provider,
      instanceType: h.instanceType,
      region: h.region,
      pricingModel: h.pricingModel,
      team: h.team,
      project: h.project,
      state: toHostState(h.state),
      gpus: gpus.length,
      gpusReporting: reporting.length,
      utilMean: mean(gpus.filter(hasUtil).map((g) => g.util)),
      memUsedBytes: withMem.length ? withMem.reduce((a, g) => a + (g.memUsedBytes ?? 0), 0) : null,
      memTotalBytes: gpus.length ? gpus.reduce((a, g) => a + (g.memTotalBytes ?? 0), 0) : null,
      pricePerHourMicros: price ? price.perHourMicros.toString() : null,
      currency: price?.currency ?? "USD",
      lastSeen: h.lastSeen ? h.lastSeen.toISOString() : null,
      interruptionPending: h.interruptionPending ?? false,
      interruptionAt: h.interruptionAt ? h.interruptionAt.toISOString() : null,
      vgpuGuests: h.vgpuGuests ?? 0,
    };
  });
}
