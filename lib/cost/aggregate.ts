import { monthBounds } from "./forecast.ts";
import { sumMicros } from "./money.ts";

/** The UsageHour fields a monthly summary reads; Prisma's UsageHour fits this shape. */
export interface CostRow {
  hourStart: Date;
  gpuKey: string;
  provider: string;
  team: string;
  project: string;
  instanceType: string;
  pricingModel: string;
  priced: boolean;
  costMicros: bigint;
  idleCostMicros: bigint;
  upSeconds: number;
}

export const DIMENSIONS = ["provider", "team", "project", "instanceType", "pricingModel"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface BreakdownEntry {
  key: string;
  costMicros: bigint;
  idleCostMicros: bigint;
  /** Host-hours as up seconds, priced or not. */
  upSeconds: number;
  /** Host-hours with no catalogue price: their cost is unknown, not zero. */
  unpricedHours: number;
}

export interface Summary {
  costMicros: bigint;
  idleCostMicros: bigint;
  upSeconds: number;
  unpricedHours: number;
  breakdown: Record<Dimension, BreakdownEntry[]>;
}

/**
 * Groups host rows (gpuKey "host"; GPU rows would count the same money twice) that start in
 * [from, to). Every row lands in exactly one entry per dimension, so each breakdown sums exactly
 * to the total. Entries are ordered by cost, highest first, then by key.
 */
export function summarizeCosts(rows: readonly CostRow[], from: Date, to: Date): Summary {
  const hostRows = rows.filter(
    (r) => r.gpuKey === "host" && r.hourStart >= from && r.hourStart < to,
  );
  const breakdown = Object.fromEntries(DIMENSIONS.map((d) => [d, groupBy(hostRows, d)])) as Record<
    Dimension,
    BreakdownEntry[]
  >;
  return {
    costMicros: sumMicros(hostRows.map((r) => r.costMicros)),
    idleCostMicros: sumMicros(hostRows.map((r) => r.idleCostMicros)),
    upSeconds: hostRows.reduce((s, r) => s + r.upSeconds, 0),
    unpricedHours: hostRows.filter((r) => !r.priced).length,
    breakdown,
  };
}

/** summarizeCosts over the UTC calendar month containing `month`. */
export function summarizeMonth(rows: readonly CostRow[], month: Date): Summary {
  const { start, end } = monthBounds(month);
  return summarizeCosts(rows, start, end);
}

export function groupBy(rows: readonly CostRow[], dimension: Dimension): BreakdownEntry[] {
  const groups = new Map<string, BreakdownEntry>();
  for (const r of rows) {
    const key = r[dimension];
    const g = groups.get(key) ?? {
      key,
      costMicros: 0n,
      idleCostMicros: 0n,
      upSeconds: 0,
      unpricedHours: 0,
    };
    g.costMicros += r.costMicros;
    g.idleCostMicros += r.idleCostMicros;
    g.upSeconds += r.upSeconds;
    if (!r.priced) g.unpricedHours += 1;
    groups.set(key, g);
  }
  return [...groups.values()].sort((x, y) =>
    x.costMicros === y.costMicros
      ? compareKeys(x.key, y.key)
      : x.costMicros > y.costMicros
        ? -1
        : 1,
  );
}

// Code-unit order, not localeCompare, so the order is the same on every server locale.
function compareKeys(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
