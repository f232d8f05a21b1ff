import { describe, expect, it } from "vitest";
import { NOW, ROWS } from "./fixtures.ts";
import { offersByModel } from "./offers.ts";
import { repriceMonth } from "./reprice.ts";

function must<T>(v: T | null | undefined): T {
  if (v === null || v === undefined) throw new Error("missing");
  return v;
}

// A month with 10 H100 GPU-hours (priced: 10 × 98.32 / 8 = $122.90 on p5 on-demand) and
// 5000 T4 GPU-seconds, 1400 of them unpriced; re-priced figures worked out by hand.

const usage = [
  { model: "H100-80GB", gpuSeconds: 36_000, pricedGpuSeconds: 36_000, actualMicros: 122_900_000n },
  { model: "T4", gpuSeconds: 5_000, pricedGpuSeconds: 3_600, actualMicros: 526_000n },
];

describe("this month re-priced", () => {
  const r = repriceMonth(usage, offersByModel(ROWS, NOW));

  it("prices each model's GPU-hours at the cheapest offer of every provider and pricing model", () => {
    const h100 = must(r.models.find((m) => m.model === "H100-80GB"));
    expect(
      h100.alternatives.map((a) => [a.provider, a.pricingModel, a.offer.instanceType, a.micros]),
    ).toEqual([
      ["gcp", "spot", "a3-highgpu-8g", 35_000_000n], // 36000 s × 28.00 / (8 × 3600)
      ["aws", "spot", "p5.48xlarge", 43_750_000n], // × 35.00
      ["gcp", "on_demand", "a3-highgpu-8g", 109_750_000n], // × 87.80
      ["aws", "on_demand", "p5.48xlarge", 122_900_000n], // × 98.32
    ]);
    expect(h100.providersWithout).toEqual(["azure", "tencent"]);
    const t4 = must(r.models.find((m) => m.model === "T4"));
    // 5000 s × 0.526 / 3600 = 0.7305555… → 730 556 micros; × 1.27 → 1 763 889
    expect(t4.alternatives.map((a) => [a.provider, a.micros])).toEqual([
      ["aws", 730_556n],
      ["azure", 730_556n],
      ["tencent", 1_763_889n],
    ]);
    expect(t4.unpricedGpuSeconds).toBe(1_400);
    expect(t4.providersWithout).toEqual(["gcp"]);
  });

  it("totals each column over the models it offers and names the ones it does not", () => {
    const col = (p: string, m: string) =>
      must(r.columns.find((c) => c.provider === p && c.pricingModel === m));
    expect(col("aws", "on_demand")).toMatchObject({
      micros: 123_630_556n,
      displayMicros: 123_630_000n,
      actualCoveredMicros: 123_426_000n,
      missingModels: [],
    });
    expect(col("gcp", "spot")).toMatchObject({ micros: 35_000_000n, missingModels: ["T4"] });
    expect(col("azure", "on_demand")).toMatchObject({
      micros: 730_556n,
      missingModels: ["H100-80GB"],
    });
    expect(r.columns.some((c) => c.provider === "azure" && c.pricingModel === "spot")).toBe(false);
  });

  it("rounds displayed rows to the cent so every column adds up to its total", () => {
    for (const c of r.columns) {
      const parts = r.models.flatMap((m) =>
        m.alternatives.filter(
          (a) => a.provider === c.provider && a.pricingModel === c.pricingModel,
        ),
      );
      expect(
        parts.reduce((s, a) => s + a.displayMicros, 0n),
        `${c.provider} ${c.pricingModel}`,
      ).toBe(c.displayMicros);
      for (const a of parts) expect(a.displayMicros % 10_000n).toBe(0n);
    }
    expect(r.models.reduce((s, m) => s + m.displayActualMicros, 0n)).toBe(r.displayActualMicros);
    expect(r.actualMicros).toBe(123_426_000n);
  });

  it("is empty for a month without GPU-hours", () => {
    expect(repriceMonth([], offersByModel(ROWS, NOW))).toMatchObject({
      models: [],
      columns: [],
      actualMicros: 0n,
    });
  });
});
