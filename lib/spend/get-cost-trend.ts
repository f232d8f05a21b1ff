import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { monthBounds, monthsEnding } from "../core/months.ts";
import { ledgerScopeWhere } from "./scope-where.ts";

export interface TrendPoint {
  month: string;
  totalMicros: string;
  idleMicros: string;
}

/** Priced spend and idle spend of the `months` months ending with `month`, oldest first. */
export async function getCostTrend(
  month: string,
  { client = defaultDb, months = 6, scope }: { client?: Db; months?: number; scope: TeamScope },
): Promise<TrendPoint[]> {
  return Promise.all(
    monthsEnding(month, months).map(async (m) => {
      const { from, to } = monthBounds(m);
      const agg = await client.usageHour.aggregate({
        where: {
          gpuKey: "host",
          priced: true,
          hourStart: { gte: from, lt: to },
          ...ledgerScopeWhere(scope),
        },
        _sum: { costMicros: true, idleCostMicros: true },
      });
      return {
        month: m,
        totalMicros: (agg._sum.costMicros ?? 0n).toString(),
        idleMicros: (agg._sum.idleCostMicros ?? 0n).toString(),
      };
    }),
  );
}
