import { describe, expect, it } from "vitest";
import { catalogueRows } from "./catalogue.ts";
import { lookupPrice, type PricedLookup } from "./lookup.ts";
import { priceNoteOf } from "./price-note.ts";
import type { SpotPoint } from "./spot-history.ts";

const at = new Date("2026-11-15T10:00:00Z");
const priced = (q: { provider: string; instanceType: string; region: string }) => {
  const p = lookupPrice(catalogueRows(), { ...q, pricingModel: "on_demand", at });
  if (!p.priced) throw new Error(p.reason);
  return p as PricedLookup;
};

describe("priceNoteOf", () => {
  it("says when the any-region fallback priced a host", () => {
    const g5 = { provider: "aws", instanceType: "g5.xlarge", region: "eu-west-1" };
    expect(priceNoteOf(priced(g5), "eu-west-1")).toBe("fallback (no eu-west-1 price)");
    const p4d = { provider: "aws", instanceType: "p4d.24xlarge", region: "eu-west-1" };
    expect(priceNoteOf(priced(p4d), "eu-west-1")).toBeNull();
  });

  it("names the CNY price and the rate it was converted at", () => {
    const ali = {
      provider: "alibaba",
      instanceType: "ecs.gn6i-c4g1.xlarge",
      region: "cn-shanghai",
    };
    expect(priceNoteOf(priced(ali), "cn-shanghai")).toBe(
      "¥11.63/h at 0.14878738 USD/CNY (2026-08-21)",
    );
  });

  it("names the zone whose spot market price priced a spot host, or the zones averaged", () => {
    const point = (zone: string, usd: bigint): SpotPoint => ({
      instanceType: "g5.xlarge",
      zone,
      region: "us-east-1",
      at: new Date("2026-11-15T09:00:00Z"),
      usdPerHourMicros: usd,
    });
    const history = [point("us-east-1b", 412_300n), point("us-east-1d", 398_100n)];
    const rows = catalogueRows().map((r) =>
      r.provider === "aws" && r.instanceType === "g5.xlarge" ? { ...r, spotHistory: history } : r,
    );
    const q = { provider: "aws", instanceType: "g5.xlarge", region: "us-east-1" };
    const spot = (zone: string | null) => {
      const p = lookupPrice(rows, { ...q, pricingModel: "spot", zone, at });
      if (!p.priced) throw new Error(p.reason);
      return p;
    };
    expect(spot("us-east-1b").usdPerHourMicros).toBe(412_300n);
    expect(priceNoteOf(spot("us-east-1b"), "us-east-1")).toBe(
      "spot market price in us-east-1b (2026-11-15 09:00 UTC)",
    );
    expect(priceNoteOf(spot(null), "us-east-1")).toBe(
      "spot market price in us-east-1 (mean of 2 zones, 2026-11-15 09:00 UTC)",
    );
    // the catalogue's on-demand row carries no market note
    const od = lookupPrice(rows, { ...q, pricingModel: "on_demand", at });
    expect(od.priced && priceNoteOf(od, "us-east-1")).toBe("fallback (no us-east-1 price)");
  });
});
