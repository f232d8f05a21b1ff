import type { PriceRow } from "./types.ts";

const key = (r: PriceRow) =>
  [
    r.provider.toLowerCase(),
    r.instanceType.toLowerCase(),
    r.region.toLowerCase(),
    r.pricingModel,
    r.site ?? "",
  ].join("|");

/**
 * The rows in force at `now`: per provider, instance type, region, pricing model and site (a
 * provider's two lists, Tencent's, are both offers), the latest
 * row with effectiveFrom ≤ now (retired rows are already left out by loadPriceRows).
 */
export function rowsInForce(rows: readonly PriceRow[], now: Date): PriceRow[] {
  const latest = new Map<string, PriceRow>();
  for (const r of rows) {
    if (r.effectiveFrom.getTime() > now.getTime()) continue;
    const k = key(r);
    const seen = latest.get(k);
    if (!seen || r.effectiveFrom.getTime() > seen.effectiveFrom.getTime()) latest.set(k, r);
  }
  return [...latest.values()];
}
