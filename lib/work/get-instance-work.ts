import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { monthBounds, monthOf } from "@/lib/core/months.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import { getUnitCostMonth } from "./get-unit-cost-month.ts";
import type { UnitCostResult } from "./schema.ts";

export interface InstanceWork {
  result: UnitCostResult;
  /** the host's GPUs' mean utilization over the ledger hours its counters were reported */
  utilMean: number | null;
}

/** One host's measured work this month (the instance page). */
export async function getInstanceWork(
  hostId: string,
  {
    client = defaultDb,
    metrics,
    scope,
    now = new Date(),
  }: { client?: Db; metrics: MetricsSource; scope: TeamScope; now?: Date },
): Promise<InstanceWork> {
  const result = await getUnitCostMonth(monthOf(now), { client, metrics, scope, hostId });
  if (result.hosts.length === 0) return { result, utilMean: null };
  const { from, to } = monthBounds(result.month);
  const counted = await metrics.workHours(from, to);
  const hours = [...new Set(counted.filter((w) => w.hostId === hostId).map((w) => +w.hourStart))];
  const agg = await client.usageHour.aggregate({
    where: {
      hostId,
      gpuKey: { not: "host" },
      parentKey: null,
      hourStart: { in: hours.map((h) => new Date(h)) },
    },
    _avg: { utilMean: true },
  });
  return { result, utilMean: agg._avg.utilMean };
}
