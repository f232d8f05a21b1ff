import { pushTo } from "../core/group.ts";
import { roundPartsToTotal, roundToUnit } from "@/lib/core/money.ts";
import {
  BREAKDOWN_DIMENSIONS,
  type BreakdownDimension,
  type BreakdownRow,
  type CostInstanceRow,
} from "@/lib/zod/schemas/costs.ts";

// Host ledger rows of one month, grouped by the attribution snapshot, become the breakdowns and the
// per-instance table. Every group lands in exactly one row of each breakdown, so each breakdown
// sums to the month total exactly (BigInt). The display* fields are the same amounts rounded to the
// cent by largest remainder, so displayed rows add up to the displayed total (rounded once).

export interface LedgerGroup {
  hostId: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  priced: boolean;
  costMicros: bigint;
  idleMicros: bigint;
  upSeconds: number;
}

export interface MonthCosts {
  totalMicros: bigint;
  idleMicros: bigint;
  /** the totals rounded once to the cent: what the rows' display fields add up to */
  displayTotalMicros: bigint;
  displayIdleMicros: bigint;
  unpriced: { hosts: number; upSeconds: number };
  breakdowns: Record<BreakdownDimension, BreakdownRow[]>;
  instances: CostInstanceRow[];
}

function byCostDesc<T extends { costMicros: string; key?: string }>(
  label: (x: T) => string,
): (a: T, b: T) => number {
  return (a, b) => {
    const d = BigInt(b.costMicros) - BigInt(a.costMicros);
    if (d !== 0n) return d > 0n ? 1 : -1;
    return label(a).localeCompare(label(b));
  };
}

function breakdown(groups: readonly LedgerGroup[], dim: BreakdownDimension): BreakdownRow[] {
  const acc = new Map<
    string,
    { cost: bigint; idle: bigint; up: number; unpriced: number; hosts: Set<string> }
  >();
  for (const g of groups) {
    const key = g[dim];
    const a = acc.get(key) ?? { cost: 0n, idle: 0n, up: 0, unpriced: 0, hosts: new Set() };
    // An unpriced hour's cost is unknown, not zero: it adds time, never money.
    if (g.priced) {
      a.cost += g.costMicros;
      a.idle += g.idleMicros;
    } else a.unpriced += g.upSeconds;
    a.up += g.upSeconds;
    a.hosts.add(g.hostId);
    acc.set(key, a);
  }
  const rows = [...acc]
    .map(([key, a]) => ({
      key,
      costMicros: a.cost.toString(),
      idleMicros: a.idle.toString(),
      upSeconds: a.up,
      unpricedSeconds: a.unpriced,
      hosts: a.hosts.size,
    }))
    .sort(byCostDesc((r) => r.key));
  return withDisplay(rows);
}

/**
 * Adds displayCostMicros / displayIdleMicros: each column rounded to the cent by largest remainder
 * over the rows in their displayed order (ties go to the row shown first).
 */
export function withDisplay<T extends { costMicros: string; idleMicros: string }>(
  rows: readonly T[],
): (T & { displayCostMicros: string; displayIdleMicros: string })[] {
  const cost = roundPartsToTotal(rows.map((r) => BigInt(r.costMicros)));
  const idle = roundPartsToTotal(rows.map((r) => BigInt(r.idleMicros)));
  return rows.map((r, i) => ({
    ...r,
    displayCostMicros: (cost[i] ?? 0n).toString(),
    displayIdleMicros: (idle[i] ?? 0n).toString(),
  }));
}

function instances(
  groups: readonly LedgerGroup[],
  month: string,
  hostnames: ReadonlyMap<string, string>,
  gpuSeconds: ReadonlyMap<string, number>,
): CostInstanceRow[] {
  const byHost = new Map<string, LedgerGroup[]>();
  for (const g of groups) pushTo(byHost, g.hostId, g);
  const rows = [...byHost].map(([hostId, gs]) => {
    // Attribution can change mid-month; the row shows the one the host spent most time under.
    const main = gs.reduce((best, g) => (g.upSeconds > best.upSeconds ? g : best));
    const pricedCount = gs.filter((g) => g.priced).length;
    return {
      month,
      hostId,
      hostname: hostnames.get(hostId) ?? hostId,
      provider: main.provider,
      instanceType: main.instanceType,
      region: main.region,
      pricingModel: main.pricingModel,
      team: main.team,
      project: main.project,
      upSeconds: gs.reduce((s, g) => s + g.upSeconds, 0),
      gpuSeconds: gpuSeconds.get(hostId) ?? 0,
      costMicros: gs.reduce((s, g) => s + (g.priced ? g.costMicros : 0n), 0n).toString(),
      idleMicros: gs.reduce((s, g) => s + (g.priced ? g.idleMicros : 0n), 0n).toString(),
      priced: (pricedCount === gs.length
        ? "yes"
        : pricedCount === 0
          ? "no"
          : "partial") as CostInstanceRow["priced"],
    };
  });
  return withDisplay(rows.sort(byCostDesc((r) => r.hostname)));
}

export function buildMonthCosts(
  month: string,
  groups: readonly LedgerGroup[],
  hostnames: ReadonlyMap<string, string>,
  gpuSeconds: ReadonlyMap<string, number> = new Map(),
): MonthCosts {
  let total = 0n;
  let idle = 0n;
  const unpricedHosts = new Set<string>();
  let unpricedSeconds = 0;
  for (const g of groups) {
    if (g.priced) {
      total += g.costMicros;
      idle += g.idleMicros;
    } else {
      unpricedHosts.add(g.hostId);
      unpricedSeconds += g.upSeconds;
    }
  }
  const breakdowns = Object.fromEntries(
    BREAKDOWN_DIMENSIONS.map((d) => [d, breakdown(groups, d)]),
  ) as Record<BreakdownDimension, BreakdownRow[]>;
  return {
    totalMicros: total,
    idleMicros: idle,
    displayTotalMicros: roundToUnit(total),
    displayIdleMicros: roundToUnit(idle),
    unpriced: { hosts: unpricedHosts.size, upSeconds: unpricedSeconds },
    breakdowns,
    instances: instances(groups, month, hostnames, gpuSeconds),
  };
}

/**
 * Lists every breakdown (and the instance table) whose rows do not sum to the total: the exact
 * costs to the exact total, and the displayed (rounded) costs and idle costs to the totals rounded
 * once. `idle` defaults to the rows' own idle sum (exactness of idle is checked by construction).
 */
export function reconciliationErrors(
  total: bigint,
  breakdowns: Record<BreakdownDimension, readonly BreakdownRow[]>,
  instanceRows: readonly CostInstanceRow[],
  idle?: bigint,
): string[] {
  const errors: string[] = [];
  const sum = (amounts: readonly string[]) => amounts.reduce((s, a) => s + BigInt(a), 0n);
  const check = (name: string, rows: readonly (BreakdownRow | CostInstanceRow)[]) => {
    const exact = sum(rows.map((r) => r.costMicros));
    if (exact !== total) errors.push(`${name} sums to ${exact}, total is ${total}`);
    const shown = sum(rows.map((r) => r.displayCostMicros));
    if (shown !== roundToUnit(total))
      errors.push(
        `${name} displayed rows sum to ${shown}, displayed total is ${roundToUnit(total)}`,
      );
    const idleTotal = idle ?? sum(rows.map((r) => r.idleMicros));
    const shownIdle = sum(rows.map((r) => r.displayIdleMicros));
    if (shownIdle !== roundToUnit(idleTotal))
      errors.push(
        `${name} displayed idle rows sum to ${shownIdle}, displayed idle total is ${roundToUnit(idleTotal)}`,
      );
  };
  for (const d of BREAKDOWN_DIMENSIONS) check(d, breakdowns[d]);
  check("instances", instanceRows);
  return errors;
}
