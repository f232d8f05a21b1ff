import { mulDivRound } from "@/lib/core/money.ts";
import type { FocusRow } from "./columns.ts";
import {
  DAY_MS,
  pricingCategory,
  type Charge,
  type FocusContext,
  type Granularity,
  type LedgerHour,
} from "./charge.ts";
import { toRow, type Shared } from "./to-row.ts";

export {
  pricingCategory,
  utcMonth,
  type FocusContext,
  type Granularity,
  type HostFacts,
  type LedgerHour,
} from "./charge.ts";

// Ledger host-hours -> FOCUS 1.2 usage rows, one per (charge period, resource, SKU price).
//
// Costs (all exact, integer micro-units; the ledger's host row carries the cost, its GPU rows are
// shares of it and are only counted for x_GpuCount / x_GpuHours, so nothing is counted twice):
// - on-demand (and unknown models): BilledCost = EffectiveCost = ListCost = ContractedCost =
//   the ledger cost; ListUnitPrice = ContractedUnitPrice = the ledger's rate (cost ÷ hours).
// - spot: BilledCost = EffectiveCost = the ledger cost; ListCost = ContractedCost = the
//   catalogue's on-demand price of the same type and region × hours (each hour rounded to the
//   micro), the ledger cost when the catalogue has none (x_ListPriceSource says which).
// - reserved: as spot, but BilledCost = 0: the hour is paid by the commitment (upfront or
//   monthly), and EffectiveCost is its amortized hourly cost, as FOCUS's Discount Handling asks
//   ("BilledCost MUST be 0 for any row where the commitment covers the entire cost").
// - hours on actuals (re-priced from the imported bill, issue 26): the ledger cost is the billed
//   effective cost, so BilledCost and EffectiveCost are the actual, and the ledger's list estimate
//   (kept beside it) stands in for "the ledger cost" in ListCost and ContractedCost; actual and
//   estimate hours never share a row, and x_CostSource says which a row is.

function chargeKey(h: LedgerHour, periodStart: number, listPrice: bigint | null): string {
  return [
    h.hostId,
    periodStart,
    h.provider,
    h.instanceType,
    h.region,
    h.pricingModel,
    h.team,
    h.project,
    h.currency,
    listPrice ?? "ledger",
    h.actualSource ?? "estimate",
  ].join("\u0000");
}

function addHour(charges: Map<string, Charge>, h: LedgerHour, g: Granularity, ctx: FocusContext) {
  const t = h.hourStart.getTime();
  const periodStart = g === "hourly" ? t : t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
  const category = pricingCategory(h.pricingModel);
  const listPrice =
    category === "Dynamic" || category === "Committed" ? ctx.onDemandPrice(h) : null;
  const estimate = h.actualSource ? (h.listCostMicros ?? h.costMicros) : h.costMicros;
  const listMicros =
    listPrice === null ? estimate : mulDivRound(listPrice, BigInt(h.upSeconds), 3600n);
  const key = chargeKey(h, periodStart, listPrice);
  let c = charges.get(key);
  if (!c) {
    c = {
      hour: h,
      periodStart,
      listPrice,
      upSeconds: 0,
      costMicros: 0n,
      idleMicros: 0n,
      listMicros: 0n,
      actual: Boolean(h.actualSource),
      gpuSeconds: 0,
      gpuCount: 0,
      gpuModel: null,
      utilSum: 0,
      utilWeight: 0,
    };
    charges.set(key, c);
  }
  c.upSeconds += h.upSeconds;
  c.costMicros += h.costMicros;
  c.idleMicros += h.idleCostMicros;
  c.listMicros += listMicros;
  c.gpuSeconds += h.gpuSeconds;
  c.gpuCount = Math.max(c.gpuCount, h.gpuCount);
  c.gpuModel ??= h.gpuModel;
  if (h.utilMean !== null) {
    const weight = h.gpuSeconds > 0 ? h.gpuSeconds : h.upSeconds;
    c.utilSum += h.utilMean * weight;
    c.utilWeight += weight;
  }
}

/**
 * FOCUS rows for priced ledger hours: hourly, one per host-hour; daily, summed per host and UTC
 * day (split further only where the hour's attribution or list price changed within the day).
 * Hours with no up time carry no charge and make no row. Sorted by period, then host name.
 */
export function buildFocusRows(
  hours: readonly LedgerHour[],
  ctx: FocusContext,
  granularity: Granularity,
): FocusRow[] {
  const charges = new Map<string, Charge>();
  for (const h of hours) if (h.upSeconds > 0) addHour(charges, h, granularity, ctx);
  const memo: Shared = new Map();
  const rows = [...charges.values()].map((c) => toRow(c, granularity, ctx, memo));
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort(
    (a, b) =>
      a.ChargePeriodStart.getTime() - b.ChargePeriodStart.getTime() ||
      cmp(a.ResourceName, b.ResourceName) ||
      cmp(a.SkuPriceId, b.SkuPriceId) ||
      cmp(a.x_ListPriceSource, b.x_ListPriceSource) ||
      cmp(a.x_CostSource, b.x_CostSource) ||
      Number(a.ListUnitPrice - b.ListUnitPrice),
  );
}
