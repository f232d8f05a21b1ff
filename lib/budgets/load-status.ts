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

type MonthSums = {
  _sum: { costMicros: bigint | null; idleCostMicros: bigint | null };
  _min: { firstHour: Date | null };
  _max: { lastHour: Date | null };
};

function figuresOf(b: BudgetRow, agg: MonthSums | undefined, now: Date): BudgetFigures {
  const last = agg?._max.lastHour ?? null;
  return budgetFigures({
    amountMicros: b.amountMicros,
    thresholds: parseThresholds(b.thresholds),
    spendMicros: agg?._sum.costMicros ?? 0n,
    idleMicros: agg?._sum.idleCostMicros ?? 0n,
    dataFrom: agg?._min.firstHour ?? null,
    dataTo: last ? new Date(last.getTime() + HOUR_MS) : null,
    now,
  });
}

const SUMS = {
  _sum: { costMicros: true, idleCostMicros: true },
  _min: { firstHour: true },
  _max: { lastHour: true },
} as const;

/** The budget's figures for the UTC month containing `now`. */
export async function loadBudgetFigures(db: Db, b: BudgetRow, now: Date): Promise<BudgetFigures> {
  const { from: start, to: end } = monthBoundsAt(now);
  const agg = await db.usageDay.aggregate({
    where: { day: { gte: start, lt: end }, ...scopeWhere(b.scopeKind, b.scopeValue) },
    ...SUMS,
  });
  return figuresOf(b, agg, now);
}

type Keyed = "team" | "project" | "provider";
const KEYED = new Set<string>(["team", "project", "provider"]);

/**
 * The figures of many budgets (same month, same sums as `loadBudgetFigures` gives each): one
 * grouped query per scope kind in use instead of one query per budget, so listing budgets and
 * evaluating budget rules cost the same few statements however many budgets there are.
 */
export async function loadBudgetFiguresMany(
  db: Db,
  budgets: readonly BudgetRow[],
  now: Date,
): Promise<BudgetFigures[]> {
  const { from: start, to: end } = monthBoundsAt(now);
  const month = { day: { gte: start, lt: end } };
  const kinds = new Set(budgets.map((b) => (KEYED.has(b.scopeKind) ? b.scopeKind : "fleet")));
  const byKind = new Map<string, Map<string | null, MonthSums>>();
  await Promise.all(
    [...kinds].map(async (kind) => {
      if (kind === "fleet") {
        byKind.set(kind, new Map([[null, await db.usageDay.aggregate({ where: month, ...SUMS })]]));
        return;
      }
      const key = kind as Keyed;
      const values = [
        ...new Set(budgets.filter((b) => b.scopeKind === kind).map((b) => b.scopeValue)),
      ];
      const rows = await db.usageDay.groupBy({
        by: [key],
        where: { ...month, [key]: { in: values } },
        ...SUMS,
      });
      byKind.set(kind, new Map(rows.map((r) => [r[key], r])));
    }),
  );
  return budgets.map((b) =>
    KEYED.has(b.scopeKind)
      ? figuresOf(b, byKind.get(b.scopeKind)?.get(b.scopeValue), now)
      : figuresOf(b, byKind.get("fleet")?.get(null), now),
  );
}
