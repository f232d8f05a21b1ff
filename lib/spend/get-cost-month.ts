import "server-only";
import { HOUR_MS } from "../core/time.ts";
import { LIVE_HOSTS } from "@/lib/ingest/host-state.ts";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import { lookupPrice } from "@/lib/pricing/lookup.ts";
import type { PriceRow } from "@/lib/pricing/types.ts";
import type { CostMonth } from "@/lib/zod/schemas/costs.ts";
import { buildMonthCosts, reconciliationErrors, type LedgerGroup } from "./breakdown.ts";
import { costBasis } from "./cost-basis.ts";
import { monthForecast } from "./forecast.ts";
import { getScopeBudget } from "./get-fleet-budget.ts";
import { getCostTrend } from "./get-cost-trend.ts";
import { monthBounds } from "../core/months.ts";
import { priceNotes } from "./price-notes.ts";
import { dayScopeWhere } from "./scope-where.ts";

/**
 * One month of the usage ledger: totals, breakdowns, instances, budget, forecast and trend. A
 * team-limited scope sees its hosts' rows only, so every figure adds up over those hosts.
 */
export async function getCostMonth(
  month: string,
  { client = defaultDb, now = new Date(), scope }: { client?: Db; now?: Date; scope: TeamScope },
): Promise<CostMonth> {
  const { from, to } = monthBounds(month);
  // the day roll-up (UsageDay, lib/ledger/usage-days.ts): ~30 rows a host, not its GPU-hours
  const inMonth = { day: { gte: from, lt: to }, ...dayScopeWhere(scope) };
  const prices = loadPriceRows(client);
  const [groups, gpuRows, budget, trend, unpricedNow, priceRows, basis] = await Promise.all([
    client.usageDay.groupBy({
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
      where: { ...inMonth, hostHours: { gt: 0 } },
      _sum: { costMicros: true, idleCostMicros: true, upSeconds: true },
      _min: { firstHour: true },
      _max: { lastHour: true },
    }),
    client.usageDay.groupBy({
      by: ["hostId"],
      where: { ...inMonth, gpuSeconds: { gt: 0 } },
      _sum: { gpuSeconds: true },
    }),
    getScopeBudget(scope, client),
    getCostTrend(month, { client, scope }),
    prices.then((rows) => unpricedHostsNow(client, scope, now, rows)),
    prices,
    costBasis(client, inMonth),
  ]);

  const hostIds = [...new Set(groups.map((g) => g.hostId))];
  const hosts = await client.host.findMany({
    where: { id: { in: hostIds } },
    select: { id: true, hostname: true },
  });

  const hostname = new Map(hosts.map((h) => [h.id, h.hostname]));
  const notes = priceNotes(
    groups.flatMap((g) =>
      g.priced && g._min.firstHour && g._max.lastHour
        ? [
            {
              ...g,
              hostname: hostname.get(g.hostId) ?? g.hostId,
              first: g._min.firstHour,
              last: g._max.lastHour,
            },
          ]
        : [],
    ),
    priceRows,
    now,
  );

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
    hostname,
    new Map(gpuRows.map((r) => [r.hostId, r._sum.gpuSeconds ?? 0])),
  );
  const errors = reconciliationErrors(
    costs.totalMicros,
    costs.breakdowns,
    costs.instances,
    costs.idleMicros,
  );
  if (errors.length > 0) throw new Error(`cost breakdowns do not reconcile: ${errors.join("; ")}`);

  const firsts = groups.flatMap((g) => (g._min.firstHour ? [g._min.firstHour.getTime()] : []));
  const lasts = groups.flatMap((g) => (g._max.lastHour ? [g._max.lastHour.getTime()] : []));
  const dataFrom = firsts.length ? new Date(Math.min(...firsts)) : null;
  const dataTo = lasts.length ? new Date(Math.max(...lasts) + HOUR_MS) : null;
  const currency = groups.find((g) => g.priced)?.currency ?? budget?.currency ?? "USD";
  const { forecast, note, coverageNote } = monthForecast({
    month,
    totalMicros: costs.totalMicros,
    dataFrom,
    dataTo,
    now,
    currency,
  });

  return {
    month,
    from: from.toISOString(),
    to: to.toISOString(),
    generatedAt: now.toISOString(),
    currency,
    complete: now.getTime() >= to.getTime(),
    totalMicros: costs.totalMicros.toString(),
    idleMicros: costs.idleMicros.toString(),
    displayTotalMicros: costs.displayTotalMicros.toString(),
    displayIdleMicros: costs.displayIdleMicros.toString(),
    unpriced: costs.unpriced,
    unpricedNow,
    priceNotes: notes,
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
      ? {
          micros: forecast.micros.toString(),
          basisDays: forecast.basisDays,
          basis: {
            monthToDateMicros: forecast.basis.monthToDateMicros.toString(),
            dataFrom: forecast.basis.dataFrom.toISOString(),
            asOf: forecast.basis.asOf.toISOString(),
            dataSeconds: forecast.basis.dataSeconds,
            remainingSeconds: forecast.basis.remainingSeconds,
            monthSeconds: forecast.basis.monthSeconds,
          },
        }
      : null,
    forecastNote: note,
    coverageNote,
    actuals: {
      hours: basis.hours,
      actualHours: basis.actualHours,
      actualMicros: basis.actualMicros.toString(),
    },
    breakdowns: costs.breakdowns,
    instances: costs.instances,
    trend,
  };
}

/**
 * Hosts no catalogue price matches now, grouped by what a price row would need (so the costs page
 * can say so before the first ledger hour, and link each group to a prefilled price form).
 */
async function unpricedHostsNow(
  client: Db,
  scope: TeamScope,
  now: Date,
  rows: PriceRow[],
): Promise<CostMonth["unpricedNow"]> {
  const [hosts] = await Promise.all([
    client.host.findMany({
      where: { ...LIVE_HOSTS, ...(scope === null ? {} : { team: { in: [...scope] } }) },
      select: {
        provider: true,
        instanceType: true,
        region: true,
        pricingModel: true,
        gpus: { where: { parentUuid: null }, select: { name: true } },
      },
    }),
  ]);
  const groups = new Map<string, CostMonth["unpricedNow"][number]>();
  for (const h of hosts) {
    const p = lookupPrice(rows, { ...h, at: now });
    if (p.priced) continue;
    const key = [h.provider, h.instanceType, h.region, h.pricingModel].join("|");
    const g = groups.get(key);
    if (g) g.hosts++;
    else
      groups.set(key, {
        provider: h.provider,
        instanceType: h.instanceType,
        region: h.region,
        pricingModel: h.pricingModel,
        hosts: 1,
        gpuModel: h.gpus[0]?.name ?? null,
        gpuCount: h.gpus.length || null,
        reason: p.reason,
      });
  }
  return [...groups.values()].sort(
    (a, b) => b.hosts - a.hosts || a.instanceType.localeCompare(b.instanceType),
  );
}
