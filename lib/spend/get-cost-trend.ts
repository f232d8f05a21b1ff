import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { roundToUnit } from "../core/money.ts";
import { monthBounds, monthsEnding } from "../core/months.ts";
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
  return Promise.all(
    monthsEnding(month, months).map(async (m) => {
      const { from, to } = monthBounds(m);
      const agg = await client.usageDay.aggregate({
        where: { priced: true, day: { gte: from, lt: to }, ...dayScopeWhere(scope) },
        _sum: { costMicros: true, idleCostMicros: true },
      });
      const total = agg._sum.costMicros ?? 0n;
      const idle = agg._sum.idleCostMicros ?? 0n;
      return {
        month: m,
        totalMicros: total.toString(),
        idleMicros: idle.toString(),
        displayTotalMicros: roundToUnit(total).toString(),
        displayIdleMicros: roundToUnit(idle).toString(),
      };
    }),
  );
}
