import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { monthForecast } from "./forecast.ts";
import { getScopeBudget } from "./get-fleet-budget.ts";
import { dayScopeWhere } from "./scope-where.ts";
import { monthBounds, monthOf } from "../core/months.ts";
import { HOUR_MS } from "../core/time.ts";

export interface MonthSpend {
  month: string;
  spendMicros: string;
  forecastMicros: string | null;
  budgetMicros: string | null;
}

/**
 * The current UTC month's spend so far, its forecast and the fleet budget (fleet headline); for a
 * team-limited scope, its hosts' spend and its team budget (lib/spend/get-fleet-budget.ts).
 */
export async function getMonthSpend({
  client = defaultDb,
  now = new Date(),
  scope,
}: {
  client?: Db;
  now?: Date;
  scope: TeamScope;
}): Promise<MonthSpend> {
  const month = monthOf(now);
  const { from, to } = monthBounds(month);
  const [agg, budget] = await Promise.all([
    // the day roll-up lib/ledger keeps in step with the ledger: ~30 rows a host a month instead of
    // ~720 host-hours (the fleet headline reads it on every snapshot rebuild)
    client.usageDay.aggregate({
      where: { day: { gte: from, lt: to }, ...dayScopeWhere(scope) },
      _sum: { costMicros: true },
      _min: { firstHour: true },
      _max: { lastHour: true },
    }),
    getScopeBudget(scope, client),
  ]);
  // Unpriced rows carry a cost of 0, so summing every host row equals summing the priced ones.
  const total = agg._sum.costMicros ?? 0n;
  const last = agg._max.lastHour;
  const { forecast } = monthForecast({
    month,
    totalMicros: total,
    dataFrom: agg._min.firstHour,
    dataTo: last ? new Date(last.getTime() + HOUR_MS) : null,
    now,
  });
  return {
    month,
    spendMicros: total.toString(),
    forecastMicros: forecast ? forecast.micros.toString() : null,
    budgetMicros: budget ? budget.amountMicros.toString() : null,
  };
}
