import { describe, expect, it } from "vitest";
import type { CurrentGpu } from "@/lib/metrics/source.ts";
import { shapeInstanceGpus } from "@/lib/fleet/instance-detail.ts";
import { buildGrid } from "@/lib/fleet/grid.ts";
import { instanceGpuSchema } from "@/lib/zod/schemas/instance.ts";
import { gpuSeriesSchema, type GpuSeriesDto } from "@/lib/zod/schemas/series.ts";
import { GPU_METRICS, gpuMetricsFor, shapeGpuMetric } from "./chart-line-gpu-metric.shape.ts";

// SM active (DCGM profiling) in the instance API's GPU DTO and as a per-GPU chart where present.

const gpu = (index: number, sm?: [number, number | null][]): GpuSeriesDto => ({
  uuid: `u${index}`,
  index,
  name: "H100",
  util: [{ t: 0, v: 0.9 }],
  memUsedBytes: [],
  powerWatts: [],
  tempCelsius: [],
  smClockHz: [],
  ...(sm ? { smActive: sm.map(([t, v]) => ({ t, v })) } : {}),
});

describe("SM active chart", () => {
  it("charts SM active in percent, one line per GPU, when some GPU has readings", () => {
    const gpus = [
      gpu(0, [
        [0, 0.12],
        [60_000, 0.5],
      ]),
      gpu(1),
    ];
    expect(gpuMetricsFor(gpus)).toEqual([...GPU_METRICS]);
    const c = shapeGpuMetric(gpus, "smActive");
    expect(c).toMatchObject({ label: "SM active", unit: "%", max: 100, hasData: true });
    expect(c.rows).toEqual([
      { t: 0, g0: 12, g1: null },
      { t: 60_000, g0: 50, g1: null },
    ]);
    expect(c.lines.map((l) => l.label)).toEqual(["GPU 0", "GPU 1"]);
  });

  it("leaves the chart out where no GPU has profiling (absent, empty or all null)", () => {
    const without = GPU_METRICS.filter((m) => m !== "smActive");
    expect(gpuMetricsFor([gpu(0), gpu(1)])).toEqual(without);
    expect(gpuMetricsFor([gpu(0, [])])).toEqual(without);
    expect(gpuMetricsFor([gpu(0, [[0, null]])])).toEqual(without);
    expect(shapeGpuMetric([gpu(0)], "smActive").hasData).toBe(false);
  });

  it("is part of the series DTO, optional for GPUs without it", () => {
    expect(gpuSeriesSchema.parse(gpu(0, [[0, 0.3]])).smActive).toEqual([{ t: 0, v: 0.3 }]);
    expect(gpuSeriesSchema.parse(gpu(0)).smActive).toBeUndefined();
  });
});

describe("SM active in the instance GPU DTO", () => {
  const current = (uuid: string, index: number, smActive?: number | null): CurrentGpu => ({
    hostId: "h",
    hostname: "h",
    uuid,
    index,
    name: "NVIDIA H100 80GB HBM3",
    util: 0.95,
    memUsedBytes: 1024,
    memTotalBytes: 2048,
    powerWatts: 300,
    tempCelsius: 60,
    processes: 1,
    lastSeen: new Date(0),
    reporting: true,
    parentUuid: null,
    migProfile: null,
    ...(smActive === undefined ? {} : { smActive }),
  });

  it("carries the live reading, null where the exporter has no profiling", () => {
    const now = [current("a", 0, 0.07), current("b", 1), current("c", 2, null)];
    const { gpus } = shapeInstanceGpus("h", now, buildGrid(now), []);
    expect(gpus.map((g) => [g.index, g.smActive])).toEqual([
      [0, 0.07],
      [1, null],
      [2, null],
    ]);
    for (const g of gpus) expect(instanceGpuSchema.parse(g)).toEqual(g);
  });
});
