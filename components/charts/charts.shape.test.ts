import { describe, expect, it } from "vitest";
import { shapeFleetUtilization } from "./chart-area-fleet-utilization.shape.ts";
import { shapeCostTrend } from "./chart-bar-cost-trend.shape.ts";
import { shapeGpuMetric } from "./chart-line-gpu-metric.shape.ts";
import { typicalStep, withGaps } from "./gaps.ts";

const series = (pts: [number, number | null][]) => pts.map(([t, v]) => ({ t, v }));

describe("shapeFleetUtilization", () => {
  it("merges utilization and reporting GPUs by time, in percent", () => {
    const c = shapeFleetUtilization({
      from: new Date(0).toISOString(),
      to: new Date(3600_000).toISOString(),
      util: series([
        [120_000, 0.5],
        [60_000, 0.4234],
        [180_000, null],
      ]),
      gpusReporting: series([
        [60_000, 100],
        [240_000, 98],
      ]),
    });
    expect(c.points).toEqual([
      { t: 60_000, util: 42.3, gpus: 100 },
      { t: 120_000, util: 50, gpus: null },
      { t: 180_000, util: null, gpus: null },
      { t: 240_000, util: null, gpus: 98 },
    ]);
    expect(c).toMatchObject({ domain: [0, 3600_000], spanMs: 3600_000, hasData: true, latest: 50 });
  });
  it("says when there is nothing to draw", () => {
    const c = shapeFleetUtilization({
      from: new Date(0).toISOString(),
      to: new Date(1).toISOString(),
      util: series([[0, null]]),
      gpusReporting: [],
    });
    expect(c.hasData).toBe(false);
  });
});

describe("shapeGpuMetric", () => {
  const gpu = (index: number, util: [number, number | null][]) => ({
    uuid: `u${index}`,
    index,
    name: "A100",
    util: series(util),
    memUsedBytes: series(util.map(([t]) => [t, 2 * 1024 ** 3])),
    powerWatts: [],
    tempCelsius: [],
    smClockHz: series([[0, 1_410_000_000]]),
  });
  it("pivots GPUs into columns with display units and null gaps", () => {
    const c = shapeGpuMetric(
      [
        gpu(1, [[0, 0.5]]),
        gpu(0, [
          [0, 0.25],
          [60_000, 1],
        ]),
      ],
      "util",
    );
    expect(c.rows).toEqual([
      { t: 0, g0: 25, g1: 50 },
      { t: 60_000, g0: 100, g1: null },
    ]);
    expect(c.lines.map((l) => l.label)).toEqual(["GPU 0", "GPU 1"]);
    expect(c).toMatchObject({ unit: "%", max: 100, hasData: true });
    expect(shapeGpuMetric([gpu(0, [[0, 0]])], "memUsedBytes").rows).toEqual([{ t: 0, g0: 2 }]);
    expect(shapeGpuMetric([gpu(0, [])], "smClockHz").rows).toEqual([{ t: 0, g0: 1410 }]);
    expect(shapeGpuMetric([gpu(0, [])], "powerWatts").hasData).toBe(false);
  });
  it("keeps lines distinct past eight GPUs with dashes", () => {
    const many = Array.from({ length: 10 }, (_, i) => gpu(i, [[0, 0.1]]));
    const lines = shapeGpuMetric(many, "util").lines;
    expect(lines[8]?.color).toBe(lines[0]?.color);
    expect(lines[8]?.dash).toBeDefined();
    expect(lines[0]?.dash).toBeUndefined();
  });
});

describe("shapeCostTrend", () => {
  it("splits each month into used and idle spend", () => {
    const t = shapeCostTrend([
      { month: "2026-10", totalMicros: "0", idleMicros: "0" },
      { month: "2026-11", totalMicros: "12500000", idleMicros: "2500000" },
    ]);
    expect(t.rows[1]).toMatchObject({ label: "Nov 26", used: 10, idle: 2.5 });
    expect(t.hasData).toBe(true);
    expect(shapeCostTrend([{ month: "2026-10", totalMicros: "0", idleMicros: "0" }]).hasData).toBe(
      false,
    );
  });
  it("marks months with no ledger data and says which", () => {
    const row = (month: string, totalMicros: string) => ({ month, totalMicros, idleMicros: "0" });
    const leading = shapeCostTrend([
      row("2026-08", "0"),
      row("2026-09", "0"),
      row("2026-10", "1000000"),
      row("2026-11", "2000000"),
    ]);
    expect(leading.rows.map((r) => r.noData)).toEqual([true, true, false, false]);
    expect(leading.noDataNote).toBe("No ledger data before October 2026.");
    const gap = shapeCostTrend([row("2026-09", "1"), row("2026-10", "0"), row("2026-11", "2")]);
    expect(gap.noDataNote).toBe("No ledger data for October 2026.");
    expect(shapeCostTrend([row("2026-11", "2")]).noDataNote).toBeNull();
    expect(shapeCostTrend([row("2026-11", "0")]).noDataNote).toBeNull();
  });
});

describe("withGaps", () => {
  it("breaks the line where samples are missing", () => {
    const rows = [0, 60, 120, 600, 660].map((t) => ({ t, v: 1 as number | null }));
    expect(typicalStep(rows.map((r) => r.t))).toBe(60);
    expect(withGaps(rows, (t) => ({ t, v: null })).map((r) => [r.t, r.v])).toEqual([
      [0, 1],
      [60, 1],
      [120, 1],
      [180, null],
      [600, 1],
      [660, 1],
    ]);
    const single: { t: number; v: number | null }[] = [{ t: 1, v: 1 }];
    expect(withGaps(single, (t) => ({ t, v: null }))).toHaveLength(1);
  });
  it("applies to the chart shapes", () => {
    const c = shapeFleetUtilization({
      from: new Date(0).toISOString(),
      to: new Date(1_000_000).toISOString(),
      util: series([
        [0, 0.5],
        [60_000, 0.5],
        [120_000, 0.5],
        [900_000, 0.5],
      ]),
      gpusReporting: [],
    });
    expect(c.points.map((p) => p.util)).toEqual([50, 50, 50, null, 50]);
  });
});
