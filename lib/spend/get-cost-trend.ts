import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { roundToUnit } from "../core/money.ts";
import { monthBounds, monthOf, monthsEnding } from "../core/months.ts";
import { dayScopeWhere } from "./scope-where.ts";

export interface TrendPoint {
  month: string;
  totalMicros: string;
  idleMicros: string;
  /** each month's totals rounded once to the cent, on their own (no rows to add up to them) */
  displayTotalMicros: string;
  displayIdleMicros: string;
}

/** Priced spend and idle spend (from the day roll-up, UsageDay) of the `months` months ending with `month`, oldest first. */
export async function getCostTrend(
  month: string,
  { client = defaultDb, months = 6, scope }: { client?: Db; months?: number; scope: TeamScope },
): Promise<TrendPoint[]> {
  const list = monthsEnding(month, months);
  const from = monthBounds(list[0] ?? month).from;
  const to = monthBounds(month).to;
  // one grouped read of the day roll-up for the whole span, summed per month here (a statement
  // per month cost the costs page a query compile and a round trip each)
  const days = await client.usageDay.groupBy({
    by: ["day"],
    where: { priced: true, day: { gte: from, lt: to }, ...dayScopeWhere(scope) },
    _sum: { costMicros: true, idleCostMicros: true },
  });
  const sums = new Map<string, { total: bigint; idle: bigint }>();
  for (const d of days) {
    const m = monthOf(d.day);
    const s = sums.get(m) ?? { total: 0n, idle: 0n };
    s.total += d._sum.costMicros ?? 0n;
    s.idle += d._sum.idleCostMicros ?? 0n;
    sums.set(m, s);
  }
  return list.map((m) => {
    const { total, idle } = sums.get(m) ?? { total: 0n, idle: 0n };
    return {
      month: m,
      totalMicros: total.toString(),
      idleMicros: idle.toString(),
      displayTotalMicros: roundToUnit(total).toString(),
      displayIdleMicros: roundToUnit(idle).toString(),
    };
  });
}
