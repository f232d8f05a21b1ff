import { describe, expect, it } from "vitest";
import { timed } from "./collect.ts";
import { createLogger, silentLogger } from "./log.ts";
import { HostMetrics } from "./metrics.ts";
import type { GpuReading } from "./readings.ts";
import { HostState } from "./state.ts";
import { sample } from "./test/helpers.ts";

const info = {
  hostname: "h",
  provider: "aws",
  instance_type: "p5",
  region: "r",
  pricing_model: "spot",
};
const gpu = (index: number, extra: Partial<GpuReading> = {}): GpuReading => ({
  index,
  uuid: `GPU-${index}`,
  clockEvents: {},
  ...extra,
});

function setup(opts = { staleAfterMs: 1000, processTtlMs: 500, migTtlMs: 5000 }) {
  const state = new HostState(opts);
  const metrics = new HostMetrics({
    hostInfo: info,
    compatDcgm: false,
    version: "1.2.3",
    log: silentLogger,
  });
  return { state, render: (now: number) => metrics.render(state.view(now)) };
}

describe("HostState and HostMetrics", () => {
  it("leaves absent values out instead of writing 0", async () => {
    const { state, render } = setup();
    state.setGpu(gpu(0, { temperatureCelsius: 0, name: "X" }), 0);
    const text = await render(0);
    expect(sample(text, "gpu_temperature_celsius", { gpu: "0" })).toBe(0); // a real 0 stays
    for (const m of [
      "gpu_utilization_ratio",
      "gpu_power_draw_watts",
      "gpu_fan_speed_ratio",
      "gpu_ecc_errors_total",
      "gpu_clock_event_active",
    ]) {
      expect(sample(text, m)).toBeUndefined();
    }
    expect(sample(text, "gpu_info", { name: "X", mig_mode: "disabled" })).toBe(1);
    expect(sample(text, "gpu_host_info", info)).toBe(1);
    expect(sample(text, "gpu_exporter_build_info", { version: "1.2.3" })).toBe(1);
  });

  it("drops a GPU not refreshed within stale-after, keeps the others", async () => {
    const { state, render } = setup();
    state.setGpu(gpu(0, { temperatureCelsius: 40 }), 0);
    state.setGpu(gpu(1, { temperatureCelsius: 41 }), 900);
    const text = await render(1500);
    expect(sample(text, "gpu_temperature_celsius", { gpu: "0" })).toBeUndefined();
    expect(sample(text, "gpu_temperature_celsius", { gpu: "1" })).toBe(41);
    state.prune(1500);
    expect(state.view(1500).gpus.map((g) => g.index)).toEqual([1]);
  });

  it("counts processes only while a source knows them", async () => {
    const { state, render } = setup();
    state.setGpu(gpu(0), 0);
    state.setGpu(gpu(1), 0);
    state.upsertProcess(
      { gpuUuid: "GPU-0", pid: 7, processName: "python", usedMemoryBytes: 1024 },
      0,
    );
    state.upsertProcess({ gpuUuid: "GPU-0", pid: 8, processName: "x" }, 0);
    expect(sample(await render(0), "gpu_processes")).toBeUndefined(); // unknown, not 0
    state.processesKnown = true;
    let text = await render(0);
    expect(sample(text, "gpu_processes", { gpu: "0" })).toBe(2);
    expect(sample(text, "gpu_processes", { gpu: "1" })).toBe(0);
    expect(
      sample(text, "gpu_process_memory_used_bytes", { pid: "7", process_name: "python" }),
    ).toBe(1024);
    expect(sample(text, "gpu_process_memory_used_bytes", { pid: "8" })).toBeUndefined();
    text = await render(600); // past the process TTL: the processes ended
    expect(sample(text, "gpu_processes", { gpu: "0" })).toBe(0);
  });

  it("serves MIG instances only for a fresh GPU still in MIG mode", async () => {
    const { state, render } = setup();
    const mig = {
      gpuUuid: "GPU-0",
      gpuInstanceId: 2,
      profile: "3g.40gb",
      memoryTotalBytes: 40,
      memoryUsedBytes: 4,
    };
    state.setGpu(gpu(0, { migEnabled: true }), 0);
    state.replaceMig([mig], 0, ["GPU-0"]);
    const labels = { gpu: "0", uuid: "GPU-0", gpu_instance_id: "2", mig_profile: "3g.40gb" };
    expect(sample(await render(0), "gpu_mig_memory_used_bytes", labels)).toBe(4);
    state.setGpu(gpu(0, { migEnabled: false }), 10);
    expect(sample(await render(10), "gpu_mig_memory_used_bytes")).toBeUndefined();
  });

  it("times each collector run and turns a throw into success 0", async () => {
    const { state, render } = setup();
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), now: () => 0 });
    expect(await timed(state, "good", log, () => undefined)).toBe(true);
    expect(await timed(state, "bad", log, () => Promise.reject(new Error("boom")))).toBe(false);
    await timed(state, "bad", log, () => {
      throw new Error("boom");
    });
    const text = await render(0);
    expect(sample(text, "gpu_exporter_collector_success", { collector: "good" })).toBe(1);
    expect(sample(text, "gpu_exporter_collector_success", { collector: "bad" })).toBe(0);
    expect(
      sample(text, "gpu_exporter_collector_duration_seconds", { collector: "bad" }),
    ).toBeGreaterThanOrEqual(0);
    expect(lines).toHaveLength(1); // the repeated failure was rate-limited
    expect(lines[0]).toMatch(/level=warn msg="collector failed" collector=bad err=boom/);
  });
});
