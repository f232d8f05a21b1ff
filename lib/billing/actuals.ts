import { HOUR_MS } from "../core/time.ts";
import { monthBounds } from "../core/months.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { applyReprice, previewReprice } from "../ledger/reprice.ts";
import type { RepriceSource } from "../ledger/reprice-source.ts";
import type { RepriceResultDto } from "../zod/schemas/reprice.ts";
import { hostMatcher } from "./match.ts";

// Actuals (issue 26): finance re-prices a month from the imported bills through the ledger's own
// re-pricing flow (preview with old and new totals, then a staged, audited apply), with the bill as
// its source: each ledger host-hour matched to billed lines (provider + instance key + region, as
// the reconciliation matches them) takes the sum of those lines' effective cost in that UTC hour:
// usage net of discounts and amortised commitments, with credits and adjustments that fall in the
// hour. Hours the bills do not mention keep the list price and stay estimates.

export interface MonthActuals {
  /** `${hostId}|${hourStartMs}` → effective micro-dollars */
  byHostHour: Map<string, bigint>;
  imports: string[];
}

const hourKey = (hostId: string, hourStartMs: number) => `${hostId}|${hourStartMs}`;

/** The billed effective cost of each matched host-hour of `month`. */
export async function loadMonthActuals(db: Db, month: string): Promise<MonthActuals> {
  const { from, to } = monthBounds(month);
  const [imports, hosts, groups] = await Promise.all([
    db.billingImport.findMany({ where: { period: month }, select: { id: true } }),
    db.host.findMany({
      select: { id: true, hostname: true, provider: true, region: true, instanceId: true },
    }),
    db.billingLine.groupBy({
      by: ["provider", "instanceKey", "region", "hourStart"],
      where: { hourStart: { gte: from, lt: to } },
      _sum: { effectiveMicros: true },
    }),
  ]);
  const match = hostMatcher(hosts);
  const byHostHour = new Map<string, bigint>();
  for (const g of groups) {
    const host = match(g);
    if (!host) continue;
    const t = g.hourStart.getTime();
    const key = hourKey(host.id, t - (t % HOUR_MS));
    byHostHour.set(key, (byHostHour.get(key) ?? 0n) + (g._sum.effectiveMicros ?? 0n));
  }
  return { byHostHour, imports: imports.map((i) => i.id) };
}

function billSource(actuals: MonthActuals): RepriceSource {
  return {
    kind: "bill",
    imports: actuals.imports,
    actualOf: (hostId, hourStart) => actuals.byHostHour.get(hourKey(hostId, hourStart.getTime())),
  };
}

/** What re-pricing `month` from its imported bills would change; writes nothing. */
export async function previewActuals(
  opts: { month: string; now: Date },
  db: Db = defaultDb,
): Promise<RepriceResultDto> {
  const source = billSource(await loadMonthActuals(db, opts.month));
  return previewReprice({ month: opts.month, now: opts.now, source }, db);
}

/**
 * Re-prices `month` from its imported bills (refused, 409, when the result differs from the
 * previewed `expectedNewTotalMicros`, for a closed month without `reopen`, or while another
 * re-pricing of the month runs: lib/ledger/reprice.ts).
 */
export async function applyActuals(
  opts: {
    month: string;
    now: Date;
    by: string;
    expectedNewTotalMicros: string | bigint;
    reopen?: boolean;
    ip?: string | null;
    pageRows?: number;
  },
  db: Db = defaultDb,
): Promise<RepriceResultDto> {
  const source = billSource(await loadMonthActuals(db, opts.month));
  return applyReprice({ ...opts, source }, db);
}

export interface ActualsStatus {
  /** host-hours in the month's ledger */
  hours: number;
  /** of them, costed from the imported bills */
  actualHours: number;
}

/** How much of `month` is on actuals (every team: the bill is account-wide). */
export async function actualsStatus(db: Db, month: string): Promise<ActualsStatus> {
  const { from, to } = monthBounds(month);
  const where = { hourStart: { gte: from, lt: to }, gpuKey: "host" };
  const [hours, actualHours] = await Promise.all([
    db.usageHour.count({ where }),
    db.usageHour.count({ where: { ...where, actualSource: { not: null } } }),
  ]);
  return { hours, actualHours };
}
