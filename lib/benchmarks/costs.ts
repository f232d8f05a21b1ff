// A benchmark result's cost per unit of work: for each pricing model, the cheapest catalogue row in
// force now for the result's provider and instance type (any region).
import { rowsInForce } from "../pricing/in-force.ts";
import type { PriceRow } from "../pricing/types.ts";
import type { UnitCostDto } from "./schema.ts";
import { unitCost } from "./unit-cost.ts";

export interface BenchmarkLike {
  provider: string;
  instanceType: string;
  unit: string;
  value: number;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Cheapest in-force row per pricing model for one provider and instance type. */
export function cheapestPerModel(
  inForce: readonly PriceRow[],
  provider: string,
  instanceType: string,
): PriceRow[] {
  const best = new Map<string, PriceRow>();
  for (const r of inForce) {
    if (!same(r.provider, provider) || !same(r.instanceType, instanceType)) continue;
    const seen = best.get(r.pricingModel);
    const cheaper =
      !seen ||
      r.usdPerHourMicros < seen.usdPerHourMicros ||
      (r.usdPerHourMicros === seen.usdPerHourMicros && r.region < seen.region);
    if (cheaper) best.set(r.pricingModel, r);
  }
  return [...best.values()].sort((a, b) => a.pricingModel.localeCompare(b.pricingModel));
}

export function benchmarkCosts(b: BenchmarkLike, inForce: readonly PriceRow[]): UnitCostDto[] {
  return cheapestPerModel(inForce, b.provider, b.instanceType).flatMap((r) => {
    const c = unitCost(r.usdPerHourMicros, b.value, b.unit);
    return c
      ? [
          {
            pricingModel: r.pricingModel,
            region: r.region,
            usdPerHourMicros: r.usdPerHourMicros.toString(),
            per: c.per,
            micros: c.micros.toString(),
          },
        ]
      : [];
  });
}

/** Convenience for callers holding all catalogue rows rather than the in-force ones. */
export function benchmarkCostsAt(
  b: BenchmarkLike,
  rows: readonly PriceRow[],
  now: Date,
): UnitCostDto[] {
  return benchmarkCosts(b, rowsInForce(rows, now));
}
