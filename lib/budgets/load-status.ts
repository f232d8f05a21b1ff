import "server-only";
import { HOUR_MS } from "../core/time.ts";
import { monthBoundsAt } from "../core/months.ts";
import type { Db } from "../db.ts";
import { budgetFigures, parseThresholds, type BudgetFigures } from "./status.ts";

// Reads a budget's month from the ledger's day roll-up (UsageDay: its host rows summed per day and
// host, kept in step by lib/ledger), ~30 rows a host a month instead of ~720 host-hours.

export interface BudgetRow {
  id: string;
  name: string;
  scopeKind: string;
  scopeValue: string;
  amountMicros: bigint;
  currency: string;
  thresholds: string;
}

export function scopeWhere(kind: string, value: string): Record<string, string> {
  switch (kind) {
    case "team":
      return { team: value };
    case "project":
      return { project: value };
    case "provider":
      return { provider: value };
    default:
      return {};
  }
}

/** The budget's figures for the UTC month containing `now`. */
export async function loadBudgetFigures(db: Db, b: BudgetRow, now: Date): Promise<BudgetFigures> {
  const { from: start, to: end } = monthBoundsAt(now);
  const agg = await db.usageDay.aggregate({
    where: { day: { gte: start, lt: end }, ...scopeWhere(b.scopeKind, b.scopeValue) },
    _sum: { costMicros: true, idleCostMicros: true },
    _min: { firstHour: true },
    _max: { lastHour: true },
  });
  const last = agg._max.lastHour;
  return budgetFigures({
    amountMicros: b.amountMicros,
    thresholds: parseThresholds(b.thresholds),
    spendMicros: agg._sum.costMicros ?? 0n,
    idleMicros: agg._sum.idleCostMicros ?? 0n,
    dataFrom: agg._min.firstHour,
    dataTo: last ? new Date(last.getTime() + HOUR_MS) : null,
    now,
  });
}
