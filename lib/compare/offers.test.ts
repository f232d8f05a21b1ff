import { describe, expect, it } from "vitest";
import { NOW, ROWS, row } from "./fixtures.ts";
import { rowsInForce } from "../pricing/in-force.ts";
import { offersByModel, toOffer } from "./offers.ts";

function must<T>(v: T | null | undefined): T {
  if (v === null || v === undefined) throw new Error("missing");
  return v;
}

describe("offers", () => {
  it("takes the row in force now: the latest started one per type, region and pricing model", () => {
    const old = row({
      provider: "aws",
      instanceType: "p5.48xlarge",
      usdPerHourMicros: 98_320_000n,
    });
    const cut = row({
      provider: "aws",
      instanceType: "p5.48xlarge",
      usdPerHourMicros: 55_040_000n,
      effectiveFrom: new Date("2025-06-01T00:00:00Z"),
    });
    const future = row({
      provider: "aws",
      instanceType: "p5.48xlarge",
      usdPerHourMicros: 1n,
      effectiveFrom: new Date("2027-01-01T00:00:00Z"),
    });
    const regional = row({
      provider: "aws",
      instanceType: "p5.48xlarge",
      region: "us-west-2",
      usdPerHourMicros: 60_000_000n,
    });
    const inForce = rowsInForce([old, cut, future, regional], NOW);
    expect(inForce.map((r) => [r.region, r.usdPerHourMicros])).toEqual([
      ["*", 55_040_000n],
      ["us-west-2", 60_000_000n],
    ]);
  });

  it("works out $/GPU-hour, $/dense-TFLOPS-hour and $/GB-hour exactly (figures by hand)", () => {
    const p5 = toOffer(must(ROWS[0]));
    // 98.32 / 8 = 12.29; ÷ 989.5 TFLOPS = 0.012420414…; ÷ 80 GB = 0.153625
    expect(p5.perGpuHourMicros).toBe(12_290_000n);
    expect(p5.perTflopsHourMicros).toBe(12_420n);
    expect(p5.tflopsPrecision).toBe("BF16");
    expect(p5.perGbHourMicros).toBe(153_625n);
    const t4 = toOffer(must(ROWS[4]));
    // 0.526 ÷ 65 FP16 TFLOPS = 0.008092307…; ÷ 16 GB = 0.032875
    expect(t4).toMatchObject({
      perTflopsHourMicros: 8_092n,
      tflopsPrecision: "FP16",
      perGbHourMicros: 32_875n,
    });
  });

  it("says which rows are converted from another currency", () => {
    expect(toOffer(must(ROWS[6])).conversion).toBe("converted from CNY");
    expect(toOffer(must(ROWS[4])).conversion).toBeNull();
  });

  it("groups by GPU model, cheapest per GPU-hour first", () => {
    const groups = offersByModel(ROWS, NOW);
    expect([...groups.keys()].sort()).toEqual(["H100-80GB", "T4"]);
    expect(must(groups.get("H100-80GB")).map((o) => `${o.provider} ${o.pricingModel}`)).toEqual([
      "gcp spot", // 3.50
      "aws spot", // 4.375
      "gcp on_demand", // 10.975
      "aws on_demand", // 12.29
    ]);
    // equal prices: by provider
    expect(must(groups.get("T4")).map((o) => o.provider)).toEqual(["aws", "azure", "tencent"]);
  });

  it("compares per GPU, not per instance: a 1-GPU type beats an 8-GPU one on the fraction", () => {
    const big = row({
      provider: "x",
      instanceType: "big",
      gpuCount: 8,
      usdPerHourMicros: 8_000_001n,
    });
    const small = row({
      provider: "y",
      instanceType: "small",
      gpuCount: 1,
      usdPerHourMicros: 1_000_000n,
    });
    const g = must(offersByModel([big, small], NOW).get("H100-80GB"));
    // 8.000001/8 rounds to 1.000000 but is dearer than 1.000000 exactly
    expect(g.map((o) => o.instanceType)).toEqual(["small", "big"]);
  });
});
