import { describe, expect, it } from "vitest";
import { catalogueRows } from "./catalogue.ts";
import { lookupPrice } from "./lookup.ts";
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
    const res = lookupPrice(rows, { ...q, instanceType: "p4d.24xlarge" });
    expect(res).toMatchObject({ priced: true, usdPerHourMicros: 32_772_600n, gpuCount: 8 });
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
});
