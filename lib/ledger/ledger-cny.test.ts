import { describe, expect, it } from "vitest";
import { catalogueRows } from "../pricing/catalogue.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import type { ExchangeRateRow } from "../pricing/fx.ts";
import { at, gpu, host, hostRow, HOUR, series } from "./ledger-fixtures.ts";
import { computeHostHour } from "./ledger-math.ts";

// A host priced in CNY (Alibaba cn-shanghai): each ledger hour converts at the rate in force at
// its own start, so an October hour keeps October's rate after November's arrives.

const rate = (usdPerUnit: string, day: string): ExchangeRateRow => ({
  currency: "CNY",
  usdPerUnit,
  effectiveFrom: new Date(`${day}T00:00:00Z`),
  source: "test",
  sourceDate: day,
});
const rates = [rate("0.14", "2026-10-01"), rate("0.1375", "2026-11-01")];
const rows = catalogueRows(undefined, rates).filter((r) => r.provider === "alibaba");
const h = host({
  provider: "alibaba",
  instanceType: "ecs.gn6i-c4g1.xlarge",
  region: "cn-shanghai",
});

function costAt(hourStart: Date): bigint | undefined {
  const samples = series(0, 3600, 60, () => [gpu("GPU-a", { util: 0.5 })]).map((s) => ({
    ...s,
    t: new Date(s.t.getTime() - HOUR.getTime() + hourStart.getTime()),
  }));
  const price = lookupPrice(rows, { ...h, at: hourStart });
  return hostRow(computeHostHour({ hourStart, host: h, price, samples, intervalSeconds: 60 }))
    ?.costMicros;
}

describe("ledger hours priced in CNY", () => {
  it("cost each hour at the rate in force at its start, in USD", () => {
    // 11.63 CNY/h × 0.14 = $1.628200; × 0.1375 = $1.599125
    expect(costAt(new Date("2026-10-31T23:00:00Z"))).toBe(1_628_200n);
    expect(costAt(new Date("2026-11-01T00:00:00Z"))).toBe(1_599_125n);
    const price = lookupPrice(rows, { ...h, at: at(0) });
    expect(price).toMatchObject({ priced: true, currency: "USD", localCurrency: "CNY" });
  });

  it("leaves an hour before the first rate unpriced rather than guessing", () => {
    const early = catalogueRows(undefined, [rate("0.14", "2023-08-01")]).filter(
      (r) => r.provider === "alibaba",
    );
    const p = lookupPrice(early, { ...h, at: new Date("2023-07-31T23:00:00Z") });
    expect(p).toMatchObject({ priced: false });
  });
});
