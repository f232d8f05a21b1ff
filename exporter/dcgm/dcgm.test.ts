import { describe, expect, it } from "vitest";
import { HAVE_SHARED, own, shared } from "../test/helpers.ts";
import { mapDcgm } from "./map.ts";
import { parsePrometheusText } from "./parse-text.ts";

const MIB = 1024 ** 2;

describe("parsePrometheusText", () => {
  it("reads labels with escapes, timestamps and special values", () => {
    const { items, warnings } = parsePrometheusText(
      [
        "# HELP a",
        "# TYPE a gauge",
        'a{x="1",y="q\\"uote\\\\n",} 1.5 1700000000000',
        "b 8.969000",
        "c +Inf",
        'd{x="1"',
        "e{=} 1",
        "f notanumber",
      ].join("\n"),
    );
    expect(items).toEqual([
      { name: "a", labels: { x: "1", y: 'q"uote\\n' }, value: 1.5 },
      { name: "b", labels: {}, value: 8.969 },
      { name: "c", labels: {}, value: Infinity },
    ]);
    expect(warnings).toHaveLength(3);
  });
});

describe.skipIf(!HAVE_SHARED)("dcgm-exporter capture (old label set)", () => {
  const { items, warnings } = parsePrometheusText(
    shared("dcgm-exporter-metrics-tesla-t4-datadog-fixture.prom"),
  );

  it("parses despite empty HELP lines, NOTE comments and no trailing newline", () => {
    expect(warnings).toEqual([]);
    expect(items.length).toBeGreaterThan(30);
  });

  it("maps UUID/modelName/gpu onto the contract and skips identity-less series", () => {
    const { gpus, mig } = mapDcgm(items);
    expect(mig).toEqual([]);
    expect(gpus.map((g) => g.uuid)).toEqual([
      "GPU-20c56d28-0da5-6d26-a36a-e7af1ce2586e",
      "GPU-9ef1b6d0-3643-5dd7-b823-c0ec20dcf2d5",
      "GPU-abc",
    ]);
    expect(gpus[0]).toMatchObject({
      index: 0,
      name: "Tesla T4",
      driverVersion: "460.106.00",
      smClockHertz: 300e6,
      memoryClockHertz: 405e6,
      temperatureCelsius: 25,
      powerDrawWatts: 8.969,
      utilizationRatio: 0,
      memoryUtilizationRatio: 0,
      memoryUsedBytes: 0,
      memoryFreeBytes: 15109 * MIB,
      memoryTotalBytes: 15109 * MIB, // used + free: this dcgm-exporter sends no FB_TOTAL
    });
    expect(gpus[1]).toMatchObject({
      powerLimitWatts: 70,
      performanceState: 8,
      memoryTotalBytes: 15109 * MIB,
      clockEvents: { gpu_idle: true, sw_power_cap: false },
    });
    // the fixture's label-less dummy series (fan speed 0) must not become a GPU's value
    expect(gpus.every((g) => g.fanSpeedRatio === undefined)).toBe(true);
  });
});

describe("dcgm-exporter with lowercase labels and MIG", () => {
  const { items, warnings } = parsePrometheusText(own("dcgm-exporter-new-labels.prom"));
  const { gpus, mig } = mapDcgm(items);

  it("reads uuid/hostname/pci_bus_id labels", () => {
    expect(warnings).toHaveLength(1);
    expect(gpus[0]).toMatchObject({
      index: 0,
      uuid: "GPU-11111111-2222-3333-4444-555555555555",
      pciBusId: "00000000:10:1C.0",
      driverVersion: "550.90.07",
      utilizationRatio: 0.87,
      memoryUsedBytes: 30000 * MIB,
      memoryTotalBytes: 40000 * MIB,
      eccCorrectedTotal: 2,
      clockEvents: { sw_power_cap: true, gpu_idle: false },
    });
    expect(gpus[0]?.performanceState).toBeUndefined(); // DCGM's 32 means unknown
  });

  it("puts per-instance memory on MIG readings, device values on the GPU", () => {
    const g1 = gpus[1];
    expect(g1?.migEnabled).toBe(true);
    expect(g1?.utilizationRatio).toBeUndefined();
    expect(g1?.memoryUsedBytes).toBeUndefined();
    expect(g1?.temperatureCelsius).toBe(44);
    expect(mig).toEqual([
      {
        gpuUuid: g1?.uuid,
        gpuInstanceId: 1,
        profile: "3g.20gb",
        memoryUsedBytes: 10240 * MIB,
        memoryTotalBytes: 19968 * MIB,
      },
      {
        gpuUuid: g1?.uuid,
        gpuInstanceId: 2,
        profile: "4g.20gb",
        memoryUsedBytes: 512 * MIB,
        memoryTotalBytes: 19968 * MIB,
      },
    ]);
  });
});
