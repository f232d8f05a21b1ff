import { describe, expect, it } from "vitest";
import { HAVE_SHARED, own, shared } from "../test/helpers.ts";
import { ALL_GPU_FIELD_NAMES } from "./fields.ts";
import { parseQueryGpu } from "./parse-query.ts";

const MIB = 1024 ** 2;

describe.skipIf(!HAVE_SHARED)("real --query-gpu captures", () => {
  it("H200 under load: every contract value, in base units", () => {
    const { items, warnings } = parseQueryGpu(shared("query-gpu-h200-590-load.csv"));
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(1);
    const g = items[0];
    expect(g).toMatchObject({
      index: 0,
      uuid: "GPU-00000000-0000-0000-0000-000000000000",
      name: "NVIDIA H200",
      pciBusId: "00000000:83:00.0",
      driverVersion: "590.48.01",
      migEnabled: false,
      utilizationRatio: 1,
      memoryUtilizationRatio: 0.07,
      memoryTotalBytes: 143771 * MIB,
      memoryUsedBytes: 32362 * MIB,
      memoryFreeBytes: 110796 * MIB,
      temperatureCelsius: 52,
      powerDrawWatts: 627.4,
      powerLimitWatts: 700,
      smClockHertz: 1980e6,
      memoryClockHertz: 3201e6,
      performanceState: 0,
      eccCorrectedTotal: 0,
      eccUncorrectedTotal: 0,
    });
    // fan.speed is [N/A] on this passively cooled board: absent, not 0
    expect(g?.fanSpeedRatio).toBeUndefined();
    expect(g?.clockEvents).toMatchObject({
      gpu_idle: false,
      sw_power_cap: false,
      sync_boost: false,
    });
  });

  it("H100 with MIG: utilization is [N/A] so it stays absent", () => {
    const { items, warnings } = parseQueryGpu(shared("query-gpu-h100-80gb-mig-590-load.csv"));
    expect(warnings).toEqual([]);
    const g = items[0];
    expect(g?.migEnabled).toBe(true);
    expect(g?.utilizationRatio).toBeUndefined();
    expect(g?.memoryUtilizationRatio).toBeUndefined();
    expect(g?.memoryUsedBytes).toBe(11125 * MIB);
    expect(g?.powerDrawWatts).toBe(433.78);
  });

  it("P100 with nounits and no index column: row order gives the index", () => {
    const { items, warnings } = parseQueryGpu(shared("query-gpu-tesla-p100-csv-nounits.csv"));
    expect(warnings).toEqual([]);
    expect(items[0]).toMatchObject({
      index: 0,
      uuid: "GPU-ef1b2c9b-38d8-2090-2bd1-f567a3eb42a6",
      memoryFreeBytes: 16280 * MIB,
      utilizationRatio: 0,
      temperatureCelsius: 37,
      powerDrawWatts: 28.16,
      smClockHertz: 405e6,
      memoryClockHertz: 715e6,
    });
    expect(items[0]?.fanSpeedRatio).toBeUndefined();
    expect(items[0]?.memoryTotalBytes).toBeUndefined(); // not queried in that capture
  });

  it("the human table is not mistaken for GPUs", () => {
    const { items, warnings } = parseQueryGpu(shared("table-h100-80gb-hbm3-sxm-8x-565.txt"));
    expect(items).toEqual([]);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it("the stream format (no header) gives the same reading as the capture", () => {
    const capture = shared("query-gpu-h200-590-load.csv").split("\n");
    const header = (capture[0] ?? "").split(",").map((h) => h.trim());
    const { items } = parseQueryGpu(capture[1] ?? "", header);
    expect(items).toEqual(parseQueryGpu(capture.join("\n")).items);
  });
});

describe("own token fixture", () => {
  const { items, warnings } = parseQueryGpu(own("query-gpu-tokens.csv"));
  const byIndex = new Map(items.map((g) => [g.index, g]));

  it("keeps good lines and reports the malformed ones", () => {
    expect([...byIndex.keys()]).toEqual([0, 1, 2, 3]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/expected 25 fields, got 4/);
    expect(warnings[1]).toMatch(/unreadable values/);
  });

  it("bare numbers and numbers with units read alike", () => {
    expect(byIndex.get(0)).toMatchObject({ utilizationRatio: 0.38, memoryUsedBytes: 8192 * MIB });
    expect(byIndex.get(1)).toMatchObject({ utilizationRatio: 0, memoryTotalBytes: 16384 * MIB });
    expect(byIndex.get(1)?.smClockHertz).toBe(135e6);
  });

  it("error tokens leave their series absent", () => {
    const g = byIndex.get(1);
    expect(g?.temperatureCelsius).toBeUndefined(); // [Unknown Error]
    expect(g?.powerDrawWatts).toBeUndefined(); // [GPU requires reset]
    expect(g?.fanSpeedRatio).toBeUndefined(); // [Not Supported]
    expect(g?.eccCorrectedTotal).toBeUndefined(); // [Insufficient Permissions]
    expect(g?.performanceState).toBe(15);
    expect(byIndex.get(2)?.powerLimitWatts).toBeUndefined(); // deprecated
    expect(byIndex.get(2)?.memoryUtilizationRatio).toBeUndefined(); // bare N/A
    expect(byIndex.get(2)?.migEnabled).toBe(true);
    expect(byIndex.get(0)?.migEnabled).toBeUndefined();
  });

  it("clock event reasons: own fields first, else the active mask, never unsupported ones", () => {
    expect(byIndex.get(0)?.clockEvents).toMatchObject({
      gpu_idle: true,
      sw_power_cap: true,
      hw_slowdown: false,
      sync_boost: false,
    });
    // GPU 3: fields [N/A], mask 0x44 = sw_power_cap + hw_thermal_slowdown; 0xF7 lacks hw_slowdown
    const g3 = byIndex.get(3)?.clockEvents;
    expect(g3).toMatchObject({ sw_power_cap: true, hw_thermal_slowdown: true, gpu_idle: false });
    expect(g3 && "hw_slowdown" in g3).toBe(false);
    expect(g3 && "display_clocks_setting" in g3).toBe(false);
  });

  it("reads a line of the exporter's own query (every field, no units)", () => {
    const values = ALL_GPU_FIELD_NAMES.map((f) =>
      f === "index" ? "3" : f === "uuid" ? "GPU-x" : f === "pstate" ? "P8" : "[N/A]",
    );
    const { items: one } = parseQueryGpu(values.join(", "), ALL_GPU_FIELD_NAMES);
    expect(one).toEqual([{ index: 3, uuid: "GPU-x", clockEvents: {}, performanceState: 8 }]);
  });
});
