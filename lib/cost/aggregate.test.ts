import { describe, expect, it } from "vitest";
import { DIMENSIONS, summarizeMonth, type CostRow } from "./aggregate.ts";
import { sumMicros } from "./money.ts";

function row(over: Partial<CostRow>): CostRow {
  return {
    hourStart: new Date("2026-11-10T05:00:00Z"),
    gpuKey: "host",
    provider: "aws",
    team: "ml",
    project: "llm",
    instanceType: "p4d.24xlarge",
    pricingModel: "on_demand",
    priced: true,
    costMicros: 32_772_600n,
    idleCostMicros: 4_096_575n,
    upSeconds: 3600,
    ...over,
  };
}

const rows: CostRow[] = [
  row({}),
  row({ hourStart: new Date("2026-11-10T06:00:00Z") }),
  row({
    team: "vision",
    project: "detector",
    instanceType: "g5.xlarge",
    pricingModel: "spot",
    costMicros: 410_000n,
    idleCostMicros: 0n,
  }),
  row({
    provider: "gcp",
    team: "vision",
    instanceType: "a2-highgpu-1g",
    costMicros: 1_836_500n,
    idleCostMicros: 1n,
    upSeconds: 1800,
  }),
  row({
    provider: "onprem",
    team: "research",
    instanceType: "dgx-a100",
    priced: false,
    costMicros: 0n,
    idleCostMicros: 0n,
  }),
  // not counted: a GPU row (would double count) and rows outside November
  row({ gpuKey: "GPU-0", costMicros: 4_096_575n }),
  row({ hourStart: new Date("2026-10-31T23:00:00Z") }),
  row({ hourStart: new Date("2026-12-01T00:00:00Z") }),
];

describe("summarizeMonth", () => {
  const s = summarizeMonth(rows, new Date("2026-11-29T12:00:00Z"));

  it("totals only the month's host rows", () => {
    // 2 × 32,772,600 + 410,000 + 1,836,500
    expect(s.costMicros).toBe(67_791_700n);
    expect(s.idleCostMicros).toBe(8_193_151n);
    expect(s.upSeconds).toBe(5 * 3600 - 1800);
    expect(s.unpricedHours).toBe(1);
  });

  it("reconciles every breakdown to the total", () => {
    for (const dim of DIMENSIONS) {
      expect(sumMicros(s.breakdown[dim].map((e) => e.costMicros)), dim).toBe(s.costMicros);
      expect(sumMicros(s.breakdown[dim].map((e) => e.idleCostMicros)), dim).toBe(s.idleCostMicros);
      expect(
        s.breakdown[dim].reduce((n, e) => n + e.unpricedHours, 0),
        dim,
      ).toBe(1);
    }
  });

  it("orders entries by cost, highest first, and flags unpriced groups", () => {
    expect(s.breakdown.team.map((e) => [e.key, e.costMicros, e.unpricedHours])).toEqual([
      ["ml", 65_545_200n, 0],
      ["vision", 2_246_500n, 0],
      ["research", 0n, 1],
    ]);
    expect(s.breakdown.pricingModel.map((e) => e.key)).toEqual(["on_demand", "spot"]);
  });
});
