import { describe, expect, it } from "vitest";
import { catalogueRows } from "./catalogue.ts";
import { lookupPrice, priceRegionNote } from "./lookup.ts";
import type { PriceRow } from "./types.ts";

function row(over: Partial<PriceRow>): PriceRow {
  return {
    provider: "aws",
    instanceType: "g5.xlarge",
    region: "*",
    pricingModel: "on_demand",
    gpuModel: "A10G",
    gpuCount: 1,
    gpuMemoryBytes: 24n * 1024n ** 3n,
    usdPerHourMicros: 1_006_000n,
    currency: "USD",
    effectiveFrom: new Date("2024-01-01T00:00:00Z"),
    source: "test",
    sourceDate: "2025-01",
    note: null,
    ...over,
  };
}

const at = new Date("2026-11-15T10:00:00Z");
const q = {
  provider: "aws",
  instanceType: "g5.xlarge",
  region: "us-east-1",
  pricingModel: "on_demand",
  at,
};

describe("lookupPrice", () => {
  it("prices from the catalogue", () => {
    const rows = catalogueRows();
    // us-east-1 has its own row from the offer file, from the cut on (the row it refines starts then)
    const res = lookupPrice(rows, { ...q, instanceType: "p4d.24xlarge" });
    expect(res).toMatchObject({ priced: true, usdPerHourMicros: 21_957_642n, gpuCount: 8 });
    expect(res).toMatchObject({ region: "us-east-1", sourceDate: "2026-09-10" });
    const spot = lookupPrice(rows, { ...q, pricingModel: "spot" });
    expect(spot).toMatchObject({ priced: true, usdPerHourMicros: 410_000n, region: "*" });
  });

  it("prefers the region's own row over '*'", () => {
    const rows = [row({}), row({ region: "eu-west-1", usdPerHourMicros: 1_123_000n })];
    expect(lookupPrice(rows, { ...q, region: "eu-west-1" })).toMatchObject({
      usdPerHourMicros: 1_123_000n,
      region: "eu-west-1",
    });
    expect(lookupPrice(rows, q)).toMatchObject({ usdPerHourMicros: 1_006_000n, region: "*" });
  });

  it("falls back to '*' while the region's row has not started", () => {
    const rows = [
      row({}),
      row({ region: "us-east-1", usdPerHourMicros: 1n, effectiveFrom: new Date("2027-01-01Z") }),
    ];
    expect(lookupPrice(rows, q)).toMatchObject({ usdPerHourMicros: 1_006_000n });
  });

  it("takes the latest row in effect at the instant", () => {
    const rows = [
      row({}),
      row({ usdPerHourMicros: 900_000n, effectiveFrom: new Date("2026-11-15T00:00:00Z") }),
    ];
    expect(lookupPrice(rows, { ...q, at: new Date("2026-11-14T23:59:59Z") })).toMatchObject({
      usdPerHourMicros: 1_006_000n,
    });
    expect(lookupPrice(rows, { ...q, at: new Date("2026-11-15T00:00:00Z") })).toMatchObject({
      usdPerHourMicros: 900_000n,
    });
  });

  it("matches labels regardless of case and dash spelling", () => {
    const rows = catalogueRows();
    const res = lookupPrice(rows, {
      provider: "Azure",
      instanceType: "standard_nd96asr_v4",
      region: "eastus",
      pricingModel: "on-demand",
      at,
    });
    expect(res).toMatchObject({ priced: true, usdPerHourMicros: 27_197_000n });
  });

  it("never falls back from spot or reserved to on-demand", () => {
    const res = lookupPrice(catalogueRows(), {
      provider: "alibaba",
      instanceType: "ecs.gn6i-c4g1.xlarge",
      region: "cn-hangzhou",
      pricingModel: "spot",
      at,
    });
    expect(res).toEqual({
      priced: false,
      missing: "pricing_model",
      reason: "no spot price for alibaba ecs.gn6i-c4g1.xlarge (catalogued: on_demand)",
    });
  });

  it("leaves unknown instance types unpriced", () => {
    const res = lookupPrice(catalogueRows(), {
      provider: "onprem",
      instanceType: "dgx-a100",
      region: "dc1",
      pricingModel: "on_demand",
      at,
    });
    expect(res).toEqual({
      priced: false,
      missing: "instance_type",
      reason: "no catalogue price for onprem dgx-a100",
    });
  });

  it("is unpriced before the first row starts", () => {
    const res = lookupPrice([row({})], { ...q, at: new Date("2023-06-01T00:00:00Z") });
    expect(res).toMatchObject({ priced: false, missing: "not_yet_effective" });
    expect(res.priced ? "" : res.reason).toContain("first from 2024-01-01T00:00:00.000Z");
  });

  it("prices the hour before AWS's June 2025 cut old and the hour after it new", () => {
    const rows = catalogueRows();
    const p5 = { ...q, instanceType: "p5.48xlarge", region: "us-west-2" };
    const before = lookupPrice(rows, { ...p5, at: new Date("2025-05-31T23:00:00Z") });
    const after = lookupPrice(rows, { ...p5, at: new Date("2025-06-01T00:00:00Z") });
    expect(before).toMatchObject({ priced: true, usdPerHourMicros: 98_320_000n, region: "*" });
    expect(after).toMatchObject({
      priced: true,
      usdPerHourMicros: 55_040_000n,
      region: "us-west-2",
    });
    // us-west-2's own row starts with the cut, like the "*" row it refines; before it, the fallback
    expect(priceRegionNote("*", "us-west-2")).toBe("fallback (no us-west-2 price)");
    expect(priceRegionNote("us-west-2", "us-west-2")).toBeNull();
    const own = lookupPrice(rows, { ...p5, at });
    expect(own).toMatchObject({ usdPerHourMicros: 55_040_000n, region: "us-west-2" });
  });
});

const CNY = {
  currency: "CNY",
  source: "test rates",
};
const cnyRow = (rates: PriceRow["rates"]) =>
  row({
    provider: "alibaba",
    instanceType: "ecs.gn6i-c4g1.xlarge",
    region: "cn-shanghai",
    currency: "CNY",
    localPerHourMicros: 11_630_000n,
    usdPerHourMicros: 1n,
    rates,
  });
const cq = {
  ...q,
  provider: "alibaba",
  instanceType: "ecs.gn6i-c4g1.xlarge",
  region: "cn-shanghai",
};

describe("lookupPrice in CNY", () => {
  const rates = [
    { ...CNY, usdPerUnit: "0.14", effectiveFrom: new Date("2026-10-01Z"), sourceDate: "2026-10" },
    { ...CNY, usdPerUnit: "0.1375", effectiveFrom: new Date("2026-11-01Z"), sourceDate: "2026-11" },
  ];

  it("converts exactly at the rate in force at each hour, two rates in two months", () => {
    const oct = lookupPrice([cnyRow(rates)], { ...cq, at: new Date("2026-10-31T23:00:00Z") });
    const nov = lookupPrice([cnyRow(rates)], { ...cq, at: new Date("2026-11-01T00:00:00Z") });
    // 11.63 × 0.14 = 1.6282 exactly; 11.63 × 0.1375 = 1.5991250 exactly
    expect(oct).toMatchObject({ priced: true, usdPerHourMicros: 1_628_200n, currency: "USD" });
    expect(oct).toMatchObject({ localCurrency: "CNY", localPerHourMicros: 11_630_000n });
    expect(nov).toMatchObject({ priced: true, usdPerHourMicros: 1_599_125n });
    expect(nov.priced && nov.exchangeRate?.sourceDate).toBe("2026-11");
  });

  it("rounds the product once, half away from zero, to the micro-dollar", () => {
    const r = [
      {
        ...CNY,
        usdPerUnit: "0.13748728",
        effectiveFrom: new Date("2026-01-01Z"),
        sourceDate: "2026-01",
      },
    ];
    // 11.63 × 0.13748728 = 1.5989770664 → 1.598977
    expect(lookupPrice([cnyRow(r)], cq)).toMatchObject({ usdPerHourMicros: 1_598_977n });
  });

  it("is unpriced, with the reason, when no rate is in force", () => {
    const res = lookupPrice([cnyRow(rates)], { ...cq, at: new Date("2026-09-30T00:00:00Z") });
    expect(res).toMatchObject({ priced: false, missing: "no_exchange_rate" });
    expect(res.priced ? "" : res.reason).toMatch(/priced in CNY and has no exchange rate in force/);
    expect(lookupPrice([cnyRow(undefined)], cq)).toMatchObject({ missing: "no_exchange_rate" });
  });
});
