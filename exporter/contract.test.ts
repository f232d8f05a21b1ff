// Issue 22: the exporter names its series from the metric contract, the names the app reads.
// A host with every kind of reading renders only names written in exporter/contract.ts.

import { describe, expect, it } from "vitest";
import { METRIC, WORK_EXPORTER_METRICS, WORK_METRIC } from "./contract.ts";
import { silentLogger } from "./log.ts";
import { HostMetrics } from "./metrics.ts";
import { PROFILING_KEYS, type GpuReading } from "./readings.ts";
import { HostState } from "./state.ts";

describe("metric contract", () => {
  it("every series the exporter serves is named in METRIC", async () => {
    const state = new HostState({ staleAfterMs: 1e9, processTtlMs: 1e9, migTtlMs: 1e9 });
    const gpu: GpuReading = {
      index: 0,
      uuid: "GPU-0",
      name: "H100",
      migEnabled: true,
      utilizationRatio: 0.5,
      memoryUtilizationRatio: 0.1,
      memoryTotalBytes: 80,
      memoryUsedBytes: 40,
      memoryFreeBytes: 40,
      temperatureCelsius: 50,
      powerDrawWatts: 300,
      powerLimitWatts: 700,
      smClockHertz: 1e9,
      memoryClockHertz: 2e9,
      fanSpeedRatio: 0.3,
      performanceState: 0,
      eccCorrectedTotal: 1,
      eccUncorrectedTotal: 0,
      clockEvents: { sw_power_cap: true },
      ...Object.fromEntries(PROFILING_KEYS.map((k) => [k, 0.25])),
    };
    state.setGpu(gpu, 0);
    state.setGpuDetails(
      "GPU-0",
      { vgpuLicensed: true, vgpuLicensedProduct: "NVIDIA RTX", vgpuLicenseExpirySeconds: 9 },
      0,
    );
    state.processesKnown = true;
    state.upsertProcess({ gpuUuid: "GPU-0", pid: 1, processName: "p", usedMemoryBytes: 1 }, 0);
    state.replaceMig(
      [
        {
          gpuUuid: "GPU-0",
          gpuInstanceId: 1,
          profile: "1g.10gb",
          memoryTotalBytes: 10,
          memoryUsedBytes: 1,
        },
      ],
      0,
      ["GPU-0"],
    );
    state.interruption = { pending: true, timeSeconds: 5 };
    state.setCollector("simulated", true, 0.01);
    state.setWork("textfile", {
      collector: "textfile",
      series: [{ unit: "samples", modelName: "", job: "j", source: "textfile", value: 1 }],
      errors: new Map([["parse", 1]]),
      files: [{ file: "j.prom", mtimeSeconds: 1, error: false }],
    });
    state.setWork("relay", {
      collector: "relay",
      series: [],
      errors: new Map(),
      targets: [{ target: "http://127.0.0.1:8000/metrics", up: true }],
    });
    const metrics = new HostMetrics({
      hostInfo: {
        hostname: "h",
        provider: "aws",
        instance_type: "p5",
        region: "r",
        pricing_model: "spot",
      },
      compatDcgm: false,
      version: "1",
      log: silentLogger,
    });
    const text = await metrics.render(state.view(0));
    const served = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]);
    const contract = new Set<string>([
      ...Object.values(METRIC),
      WORK_METRIC,
      ...Object.values(WORK_EXPORTER_METRICS),
    ]);
    expect(served.filter((name) => !contract.has(name ?? ""))).toEqual([]);
    // and every name the contract gives the exporter is served by a host that has the reading
    const own = [
      ...Object.values(METRIC).filter((n) => n !== METRIC.up),
      WORK_METRIC,
      ...Object.values(WORK_EXPORTER_METRICS),
    ];
    expect(own.filter((n) => !served.includes(n))).toEqual([]);
  });
});
