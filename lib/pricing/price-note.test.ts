import { describe, expect, it } from "vitest";
import { catalogueRows } from "./catalogue.ts";
import { lookupPrice, type PricedLookup } from "./lookup.ts";
import { priceNoteOf } from "./price-note.ts";

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
});
