import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import type { CostMonth } from "@/lib/zod/schemas/costs.ts";
import { buildMonthCosts, reconciliationErrors, type LedgerGroup } from "./breakdown.ts";
import { forecastMonth } from "./forecast-month.ts";
import { getScopeBudget } from "./get-fleet-budget.ts";
import { getCostTrend } from "./get-cost-trend.ts";
import { monthBounds } from "./month.ts";
import { ledgerScopeWhere } from "./scope-where.ts";

const HOUR_MS = 3600_000;

/**
 * One month of the usage ledger: totals, breakdowns, instances, budget, forecast and trend. A
 * team-limited scope sees its hosts' rows only, so every figure adds up over those hosts.
 */
export async function getCostMonth(
  month: string,
  {
    client = defaultDb,
    now = new Date(),
    scope = null,
  }: { client?: Db; now?: Date; scope?: TeamScope } = {},
): Promise<CostMonth> {
  const { from, to } = monthBounds(month);
  const inMonth = { hourStart: { gte: from, lt: to }, ...ledgerScopeWhere(scope) };
  const [groups, gpuRows, budget, trend] = await Promise.all([
    client.usageHour.groupBy({
      by: [
        "hostId",
        "provider",
        "instanceType",
        "region",
        "pricingModel",
        "team",
        "project",
        "priced",
        "currency",
      ],
      where: { ...inMonth, gpuKey: "host" },
      _sum: { costMicros: true, idleCostMicros: true, upSeconds: true },
      _min: { hourStart: true },
      _max: { hourStart: true },
    }),
    // GPU-hours count whole GPUs; MIG slices (uuid "<gpu>:gi<n>") would count a GPU twice.
    client.usageHour.groupBy({
      by: ["hostId"],
      where: { ...inMonth, gpuKey: { not: "host" }, NOT: { gpuKey: { contains: ":gi" } } },
      _sum: { upSeconds: true },
    }),
    getScopeBudget(client, scope),
    getCostTrend(month, { client, scope }),
  ]);

  const hostIds = [...new Set(groups.map((g) => g.hostId))];
  const hosts = await client.host.findMany({
    where: { id: { in: hostIds } },
    select: { id: true, hostname: true },
  });

  const ledger: LedgerGroup[] = groups.map((g) => ({
    hostId: g.hostId,
    provider: g.provider,
    instanceType: g.instanceType,
    region: g.region,
    pricingModel: g.pricingModel,
    team: g.team,
    project: g.project,
    priced: g.priced,
    costMicros: g._sum.costMicros ?? 0n,
    idleMicros: g._sum.idleCostMicros ?? 0n,
    upSeconds: g._sum.upSeconds ?? 0,
  }));
  const costs = buildMonthCosts(
    month,
    ledger,
    new Map(hosts.map((h) => [h.id, h.hostname])),
    new Map(gpuRows.map((r) => [r.hostId, r._sum.upSeconds ?? 0])),
  );
  const errors = reconciliationErrors(costs.totalMicros, costs.breakdowns, costs.instances);
  if (errors.length > 0) throw new Error(`cost breakdowns do not reconcile: ${errors.join("; ")}`);

  const firsts = groups.flatMap((g) => (g._min.hourStart ? [g._min.hourStart.getTime()] : []));
  const lasts = groups.flatMap((g) => (g._max.hourStart ? [g._max.hourStart.getTime()] : []));
  const dataFrom = firsts.length ? new Date(Math.min(...firsts)) : null;
  const dataTo = lasts.length ? new Date(Math.max(...lasts) + HOUR_MS) : null;
  const { forecast, note } = forecastMonth({
    month,
    totalMicros: costs.totalMicros,
    dataFrom,
    dataTo,
    now,
  });
  const currency = groups.find((g) => g.priced)?.currency ?? budget?.currency ?? "USD";

  return {
    month,
    from: from.toISOString(),
    to: to.toISOString(),
    generatedAt: now.toISOString(),
    currency,
    complete: now.getTime() >= to.getTime(),
    totalMicros: costs.totalMicros.toString(),
    idleMicros: costs.idleMicros.toString(),
    unpriced: costs.unpriced,
    dataFrom: dataFrom?.toISOString() ?? null,
    dataTo: dataTo?.toISOString() ?? null,
    budget: budget
      ? {
          name: budget.name,
          amountMicros: budget.amountMicros.toString(),
          thresholds: budget.thresholds,
        }
      : null,
    forecast: forecast
      ? { micros: forecast.micros.toString(), basisDays: forecast.basisDays }
      : null,
    forecastNote: note,
    breakdowns: costs.breakdowns,
    instances: costs.instances,
    trend,
  };
}
