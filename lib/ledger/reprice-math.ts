import { pushTo } from "../core/group.ts";
import { mulDivRound, splitByWeights, splitEven, sumMicros } from "../core/money.ts";
import type { PriceLookup } from "../pricing/lookup.ts";
import { migSplitWeights, sliceFraction } from "./mig-split.ts";

// Re-pricing one host-hour: ledger hours keep the cost they were written with until finance
// re-prices a month explicitly, after a preview ("nothing re-prices silently"). The new cost of an
// hour is what the ledger (ledger-math.ts computeHostHour) would have written with the price in
// force now at the hour's start, from the hour's stored rows: same rounding, same even split over
// the physical GPUs in uuid order, same MIG split, so re-pricing an hour with the price it was
// written with changes nothing. Only costMicros, idleCostMicros, priced and currency ever change
// (and, for an hour on actuals, the estimate kept beside its actual: reprice-source.ts): the
// ledger has no price reference, and usage (up/idle seconds) is what was measured.

export const HOST_KEY = "host";

/** The columns of a stored UsageHour row that re-pricing reads. */
export interface StoredLedgerRow {
  /** "host" for the host row, else the GPU / MIG slice uuid */
  gpuKey: string;
  /** MIG slice rows: the physical GPU's uuid */
  parentKey: string | null;
  upSeconds: number;
  idleSeconds: number;
  memTotalBytes: bigint | null;
  priced: boolean;
  costMicros: bigint;
  idleCostMicros: bigint;
  currency: string;
  /** null: the cost is the list estimate; "bill": the billed effective cost (issue 26) */
  actualSource: string | null;
  /** the list estimate kept when the cost is an actual */
  listCostMicros: bigint | null;
}

/** What re-pricing writes to one row. */
export interface RepricedValues {
  costMicros: bigint;
  idleCostMicros: bigint;
  priced: boolean;
  currency: string;
  actualSource: string | null;
  listCostMicros: bigint | null;
}

export type RepricedRow = RepricedValues & { gpuKey: string };

export const byUuid = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Weights for splitting a MIG parent's share over [parent (unallocated capacity), ...slices]
 * (slices in uuid order), as computeHostHour's splitByWeights call takes them.
 *
 * The ledger weighs a slice by its declared fraction (the exporter's migFraction, e.g. 3/7),
 * else by its share of the parent's memory, and neither the fraction nor the weight is stored.
 * - When the hour was priced, the old costs are the best record of those weights: they are
 *   exactly splitByWeights(oldShare, weights), so splitting the same share by the old costs gives
 *   the old costs back (re-pricing at the written price changes nothing), and splitting a new
 *   share by them is proportional to the original weights within a micro-dollar per slice (the
 *   old costs carry the ledger's rounding, at most one micro each).
 * - When it was not (every old cost 0), or the old share was 0 (0 s up, a $0 price), there is
 *   nothing to read them from: fall back to memTotalBytes shares with the ledger's own slice weights
 *   (mig-split.ts), which is exactly what the ledger did for slices without a declared fraction.
 */
function migWeights(
  parent: StoredLedgerRow | undefined,
  slices: readonly StoredLedgerRow[],
  hourPriced: boolean,
): bigint[] {
  const old = [parent?.costMicros ?? 0n, ...slices.map((s) => s.costMicros)];
  if (hourPriced && old.every((c) => c >= 0n) && sumMicros(old) > 0n) return old;
  const memory = (bytes: bigint | null | undefined) => (bytes == null ? null : Number(bytes));
  return migSplitWeights(
    slices.map((s) => sliceFraction(null, memory(s.memTotalBytes), memory(parent?.memTotalBytes))),
  );
}

/**
 * The new cost of one host-hour's stored rows (the host row plus its GPU / MIG rows) at `price`,
 * with the ledger's arithmetic; returned in the order of `rows`.
 */
export function repriceHostHour(
  rows: readonly StoredLedgerRow[],
  price: PriceLookup,
): RepricedRow[] {
  const host = rows.find((r) => r.gpuKey === HOST_KEY);
  if (!host) throw new RangeError("a ledger hour without its host row");
  const hostCost = price.priced
    ? mulDivRound(price.usdPerHourMicros, BigInt(host.upSeconds), 3600n)
    : 0n;
  return splitHostCost(rows, hostCost, price.priced, price.priced ? price.currency : "USD");
}

/**
 * A host-hour's cost `hostCost` split over its stored rows as the ledger splits it (even over the
 * physical GPUs in uuid order, MIG slices by weight, idle by idle seconds); in the order of `rows`.
 * The estimate columns (actualSource, listCostMicros) are the rows' own: callers set them.
 */
export function splitHostCost(
  rows: readonly StoredLedgerRow[],
  hostCost: bigint,
  priced: boolean,
  currency: string,
): RepricedRow[] {
  const host = rows.find((r) => r.gpuKey === HOST_KEY);
  if (!host) throw new RangeError("a ledger hour without its host row");
  const hostUp = host.upSeconds;
  const idleCost = (cost: bigint, idleSeconds: number): bigint =>
    hostUp === 0 ? 0n : mulDivRound(cost, BigInt(idleSeconds), BigInt(hostUp));

  const gpus = rows.filter((r) => r.gpuKey !== HOST_KEY);
  const rowOf = new Map(gpus.map((r) => [r.gpuKey, r]));
  const slicesOf = new Map<string, StoredLedgerRow[]>();
  for (const r of gpus) {
    if (r.parentKey === null) continue;
    pushTo(slicesOf, r.parentKey, r);
  }
  // The ledger writes a row for every physical GPU, including a MIG parent that never reported
  // itself; counting parents of slices too keeps the even split right should that row be missing.
  const physical = [
    ...new Set([
      ...gpus.filter((r) => r.parentKey === null).map((r) => r.gpuKey),
      ...slicesOf.keys(),
    ]),
  ].sort(byUuid);
  const shares = physical.length > 0 ? splitEven(hostCost, physical.length) : [];

  const costs = new Map<string, bigint>();
  physical.forEach((key, i) => {
    const share = shares[i] ?? 0n;
    const gpu = rowOf.get(key);
    const slices = [...(slicesOf.get(key) ?? [])].sort((x, y) => byUuid(x.gpuKey, y.gpuKey));
    if (slices.length === 0) {
      costs.set(key, share);
      return;
    }
    const [parentCost = 0n, ...sliceCosts] = splitByWeights(
      share,
      migWeights(gpu, slices, host.priced),
    );
    costs.set(key, parentCost);
    slices.forEach((s, j) => costs.set(s.gpuKey, sliceCosts[j] ?? 0n));
  });

  const gpuIdle = new Map(
    gpus.map((r) => [r.gpuKey, idleCost(costs.get(r.gpuKey) ?? 0n, r.idleSeconds)]),
  );
  const hostIdle = sumMicros(gpuIdle.values());
  return rows.map((r) =>
    r.gpuKey === HOST_KEY
      ? {
          gpuKey: r.gpuKey,
          costMicros: hostCost,
          idleCostMicros: hostIdle,
          priced,
          currency,
          actualSource: r.actualSource,
          listCostMicros: r.listCostMicros,
        }
      : {
          gpuKey: r.gpuKey,
          costMicros: costs.get(r.gpuKey) ?? 0n,
          idleCostMicros: gpuIdle.get(r.gpuKey) ?? 0n,
          priced,
          currency,
          actualSource: r.actualSource,
          listCostMicros: r.listCostMicros,
        },
  );
}

/** Whether re-pricing changes a row. */
export function rowChanges(before: RepricedValues, after: RepricedValues): boolean {
  return (
    before.costMicros !== after.costMicros ||
    before.idleCostMicros !== after.idleCostMicros ||
    before.priced !== after.priced ||
    before.currency !== after.currency ||
    before.actualSource !== after.actualSource ||
    before.listCostMicros !== after.listCostMicros
  );
}
