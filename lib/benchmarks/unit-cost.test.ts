import { describe, expect, it } from "vitest";
import { unitCost } from "./unit-cost.ts";

describe("cost per unit of work", () => {
  it("prices a token rate per million tokens (figures by hand)", () => {
    // $98.32/h ÷ (24 525 tokens/s × 3600 s) × 1e6 = 98.32 ÷ 88.29 = $1.1136029…
    expect(unitCost(98_320_000n, 24_525, "tokens/s")).toEqual({
      per: "$ per million tokens",
      micros: 1_113_603n,
    });
  });

  it("prices other rates per thousand", () => {
    // $0.526/h ÷ (100 images/s × 3600) × 1000 = $0.0014611…
    expect(unitCost(526_000n, 100, "images/s")).toEqual({
      per: "$ per 1000 images",
      micros: 1_461n,
    });
  });

  it("prices capacities per unit-hour (HPL TFLOPS, STREAM GB/s)", () => {
    // $98.32/h ÷ 400 TFLOPS = $0.2458
    expect(unitCost(98_320_000n, 400, "TFLOPS")).toEqual({
      per: "$ per TFLOPS-hour",
      micros: 245_800n,
    });
    expect(unitCost(98_320_000n, 2_000, "GB/s")).toEqual({
      per: "$ per GB/s-hour",
      micros: 49_160n,
    });
  });

  it("gives nothing for a zero or bad value", () => {
    expect(unitCost(1_000_000n, 0, "tokens/s")).toBeNull();
    expect(unitCost(1_000_000n, Number.NaN, "tokens/s")).toBeNull();
  });
});
