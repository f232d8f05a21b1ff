import { describe, expect, it } from "vitest";
import type { GpuSeries } from "@/lib/metrics/source.ts";
import { combineGpuSeries } from "./combine-gpu-series.ts";

function gpu(uuid: string, util: (number | null)[], mem: (number | null)[]): GpuSeries {
  const pts = (vs: (number | null)[]) => vs.map((v, i) => ({ t: i * 60_000, v }));
  return {
    uuid,
    index: 0,
    name: "A100",
    util: pts(util),
    memUsedBytes: pts(mem),
    powerWatts: [],
    tempCelsius: [],
    smClockHz: [],
  };
}

describe("combineGpuSeries", () => {
  it("averages utilization, sums memory and counts GPUs with data at each time", () => {
    const s = combineGpuSeries([
      gpu("a", [0.2, 0.4, null], [10, 20, null]),
      gpu("b", [0.6, null, null], [30, 5, null]),
    ]);
    expect(s.util.map((p) => p.v)).toEqual([0.4, 0.4, null]);
    expect(s.memUsedBytes.map((p) => p.v)).toEqual([40, 25, null]);
    expect(s.gpusReporting.map((p) => p.v)).toEqual([2, 2, 0]);
    expect(s.util.map((p) => p.t)).toEqual([0, 60_000, 120_000]);
  });

  it("is empty for no GPUs", () => {
    expect(combineGpuSeries([])).toEqual({ util: [], memUsedBytes: [], gpusReporting: [] });
  });
});
