// One host's samples for one closed hour -> UsageHour rows with exact costs (docs/architecture.md, "Domain rules").
// Only time covered by successful scrapes counts: a rented instance may cost money while its
// exporter is down, but we cannot know it ran, so an hour without an up scrape yields no rows.
import { pushTo } from "../core/group.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { mulDivRound, splitByWeights, splitEven, sumMicros } from "../core/money.ts";
import { HOUR_MS } from "../core/time.ts";
import { newUnit, scanHour, type UnitStats } from "./ledger-scan.ts";
import { migSplitWeights, sliceFraction } from "./mig-split.ts";
import {
  DEFAULT_IDLE_RULE,
  type IdleRule,
  type LedgerInput,
  type LedgerRow,
  type LedgerRowKind,
} from "./ledger-types.ts";

/**
 * The sample window a ledger hour needs: the idle rule's duration plus one interval before the
 * hour (so a GPU idle all along is idle from the hour's first second), to the hour's end.
 */
export function ledgerWindow(
  hourStart: Date,
  intervalSeconds: number,
  idle: Partial<IdleRule> = {},
): { from: Date; to: Date } {
  const minIdle = idle.minIdleSeconds ?? DEFAULT_IDLE_RULE.minIdleSeconds;
  const start = hourStart.getTime();
  return {
    from: new Date(start - (minIdle + intervalSeconds) * 1000),
    to: new Date(start + HOUR_MS),
  };
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

/** Nearest-rank 95th percentile. */
function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.ceil(0.95 * sorted.length) - 1] ?? null;
}

function toBytes(value: number | null): bigint | null {
  return value === null ? null : BigInt(Math.round(value));
}

function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, n] of [...counts].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    if (best === null || n > (counts.get(best) ?? 0)) best = v;
  }
  return best;
}

/**
 * Host cost = price × upSeconds / 3600, rounded half-up once; GPUs split it equally (exactly, by
 * uuid order) so GPU-level rows sum to the host row. MIG slices split their parent's share.
 */
export function computeHostHour(input: LedgerInput): LedgerRow[] {
  const { hourStart, host, price, intervalSeconds } = input;
  if (hourStart.getTime() % HOUR_MS !== 0) {
    throw new RangeError(`hourStart must be a whole UTC hour: ${hourStart.toISOString()}`);
  }
  if (!(intervalSeconds > 0)) throw new RangeError(`interval must be positive: ${intervalSeconds}`);
  const rule: IdleRule = { ...DEFAULT_IDLE_RULE, ...input.idle };
  const scan = scanHour(input.samples, hourStart, intervalSeconds, rule);
  if (scan.host.samples === 0) return [];

  const hostUp = seconds(scan.host.upMs);
  const hostCost = price.priced ? mulDivRound(price.usdPerHourMicros, BigInt(hostUp), 3600n) : 0n;
  const idleCost = (cost: bigint, idleSeconds: number): bigint =>
    hostUp === 0 ? 0n : mulDivRound(cost, BigInt(idleSeconds), BigInt(hostUp));

  const base = {
    hourStart,
    provider: host.provider,
    instanceType: host.instanceType,
    region: host.region,
    pricingModel: host.pricingModel,
    team: host.team,
    project: host.project,
    priced: price.priced,
    currency: price.priced ? price.currency : "USD",
  };
  const row = (
    kind: LedgerRowKind,
    u: UnitStats,
    cost: bigint,
    idle: { total: number; held: number },
  ): LedgerRow => ({
    ...base,
    kind,
    gpuKey: u.uuid,
    parentUuid: u.parentUuid,
    gpuModel: u.model,
    upSeconds: seconds(u.upMs),
    samples: u.samples,
    utilMean: mean(u.utils),
    utilP95: p95(u.utils),
    memPeakBytes: toBytes(u.memPeak),
    memTotalBytes: toBytes(u.memTotal),
    idleSeconds: idle.total,
    idleHeldSeconds: idle.held,
    idleEmptySeconds: idle.total - idle.held,
    costMicros: cost,
    idleCostMicros: idleCost(cost, idle.total),
  });
  const measuredIdle = (u: UnitStats) => {
    const total = seconds(u.idleMs);
    return { total, held: Math.min(total, seconds(u.idleHeldMs)) };
  };

  const byUuid = new Map(scan.units.map((u) => [u.uuid, u]));
  const slicesOf = new Map<string, UnitStats[]>();
  for (const u of scan.units) {
    if (u.parentUuid === null) continue;
    pushTo(slicesOf, u.parentUuid, u);
    // A slice whose parent never reported still needs the parent's share to land somewhere.
    if (!byUuid.has(u.parentUuid)) {
      byUuid.set(u.parentUuid, newUnit(u.parentUuid));
    }
  }
  const physical = [...byUuid.values()]
    .filter((u) => u.parentUuid === null)
    .sort((x, y) => (x.uuid < y.uuid ? -1 : x.uuid > y.uuid ? 1 : 0));
  // No GPU reported: the host row alone carries the cost.
  const shares = physical.length > 0 ? splitEven(hostCost, physical.length) : [];

  const gpuRows: LedgerRow[] = [];
  physical.forEach((gpu, i) => {
    const share = shares[i] ?? 0n;
    const slices = (slicesOf.get(gpu.uuid) ?? []).sort((x, y) => (x.uuid < y.uuid ? -1 : 1));
    if (slices.length === 0) {
      gpuRows.push(row("gpu", gpu, share, measuredIdle(gpu)));
      return;
    }
    // The parent row keeps the share of capacity no slice holds, so every non-host row sums to
    // the host row without anyone needing to know the MIG hierarchy.
    const weights = migSplitWeights(
      slices.map((s) => sliceFraction(s.fraction, s.memTotal, gpu.memTotal)),
    );
    const [parentCost = 0n, ...sliceCosts] = splitByWeights(share, weights);
    // Capacity no slice was carved from can run nothing: it is idle (empty) whenever it is up.
    const parentIdle = (weights[0] ?? 0n) > 0n ? seconds(gpu.upMs) : 0;
    gpuRows.push(row("mig_parent", gpu, parentCost, { total: parentIdle, held: 0 }));
    slices.forEach((s, j) =>
      gpuRows.push(row("mig_slice", s, sliceCosts[j] ?? 0n, measuredIdle(s))),
    );
  });

  const utils = gpuRows.flatMap((r) => byUuid.get(r.gpuKey)?.utils ?? []);
  const memTotals = physical.flatMap((u) => (u.memTotal === null ? [] : [u.memTotal]));
  const hostIdle = seconds(scan.host.idleMs);
  const hostHeld = Math.min(hostIdle, seconds(scan.host.idleHeldMs));
  const hostRow: LedgerRow = {
    ...base,
    kind: "host",
    gpuKey: "host",
    parentUuid: null,
    gpuModel: price.priced ? price.gpuModel : mostCommon(physical.flatMap((u) => u.model ?? [])),
    upSeconds: hostUp,
    samples: scan.host.samples,
    utilMean: mean(utils),
    utilP95: p95(utils),
    memPeakBytes: toBytes(scan.host.memPeakSum),
    memTotalBytes: memTotals.length ? toBytes(memTotals.reduce((s, v) => s + v, 0)) : null,
    idleSeconds: hostIdle,
    idleHeldSeconds: hostHeld,
    idleEmptySeconds: hostIdle - hostHeld,
    costMicros: hostCost,
    idleCostMicros: sumMicros(gpuRows.map((r) => r.idleCostMicros)),
  };
  return [hostRow, ...gpuRows];
}

/** The UsageHour columns of a row. */
export function toUsageHourData(
  row: LedgerRow,
  hostId: string,
  source: string,
): Prisma.UsageHourCreateManyInput {
  return {
    hourStart: row.hourStart,
    hostId,
    gpuKey: row.gpuKey,
    gpuModel: row.gpuModel,
    provider: row.provider,
    instanceType: row.instanceType,
    region: row.region,
    pricingModel: row.pricingModel,
    team: row.team,
    project: row.project,
    upSeconds: row.upSeconds,
    samples: row.samples,
    utilMean: row.utilMean,
    utilP95: row.utilP95,
    memPeakBytes: row.memPeakBytes,
    memTotalBytes: row.memTotalBytes,
    idleSeconds: row.idleSeconds,
    idleHeldSeconds: row.idleHeldSeconds,
    parentKey: row.parentUuid,
    priced: row.priced,
    costMicros: row.costMicros,
    idleCostMicros: row.idleCostMicros,
    currency: row.currency,
    source,
  };
}
