import { describe, expect, it } from "vitest";
import { silentLogger } from "./log.ts";
import { EFFICIENCY_METRICS } from "./metrics-efficiency.ts";
import { HostMetrics } from "./metrics.ts";
import type { GpuReading } from "./readings.ts";
import { HostState } from "./state.ts";
import { HAVE_PROMTOOL, promtool, sample } from "./test/helpers.ts";

const info = { hostname: "node-a", provider: "onprem", instance_type: "dgx", region: "dc1" };

function setup(compat: boolean) {
  const state = new HostState({ staleAfterMs: 1000, processTtlMs: 500, migTtlMs: 5000 });
  const metrics = new HostMetrics({
    hostInfo: info,
    compatDcgm: compat,
    version: "1.2.3",
    log: silentLogger,
  });
  return { state, render: (now: number) => metrics.render(state.view(now)) };
}

const busy: GpuReading = {
  index: 0,
  uuid: "GPU-0",
  name: "NVIDIA H100 80GB HBM3",
  pciBusId: "00000000:53:00.0",
  clockEvents: {},
  utilizationRatio: 1,
  smActiveRatio: 0.812345,
  smOccupancyRatio: 0.3,
  tensorActiveRatio: 0.5,
  dramActiveRatio: 0.4,
  graphicsEngineActiveRatio: 0.99,
  pcieTxBytesPerSecond: 4791810,
  pcieRxBytesPerSecond: 6935930,
  nvlinkTxBytesPerSecond: 71234567890,
  nvlinkRxBytesPerSecond: 0, // a real 0: no traffic, not unknown
};
const plain: GpuReading = { index: 1, uuid: "GPU-1", clockEvents: {}, utilizationRatio: 0.5 };

describe("efficiency metrics", () => {
  it("emits each field with gpu and uuid labels, only for GPUs that have it", async () => {
    const { state, render } = setup(false);
    state.setGpu(busy, 0);
    state.setGpu(plain, 0);
    const text = await render(0);
    const g0 = { gpu: "0", uuid: "GPU-0" };
    expect(sample(text, "gpu_sm_active_ratio", g0)).toBe(0.812345);
    expect(sample(text, "gpu_sm_occupancy_ratio", g0)).toBe(0.3);
    expect(sample(text, "gpu_tensor_active_ratio", g0)).toBe(0.5);
    expect(sample(text, "gpu_dram_active_ratio", g0)).toBe(0.4);
    expect(sample(text, "gpu_graphics_engine_active_ratio", g0)).toBe(0.99);
    expect(sample(text, "gpu_pcie_tx_bytes_per_second", g0)).toBe(4791810);
    expect(sample(text, "gpu_pcie_rx_bytes_per_second", g0)).toBe(6935930);
    expect(sample(text, "gpu_nvlink_tx_bytes_per_second", g0)).toBe(71234567890);
    expect(sample(text, "gpu_nvlink_rx_bytes_per_second", g0)).toBe(0);
    for (const [name] of EFFICIENCY_METRICS) {
      expect(sample(text, name, { gpu: "1" })).toBeUndefined(); // absent, never 0
    }
    expect(text).toMatch(/# HELP gpu_pcie_tx_bytes_per_second Bytes per second/);
    if (HAVE_PROMTOOL) expect(promtool(text)).toEqual({ status: 0, problems: [] });
  });

  it("shows no series and no HELP on a host without profiling, and drops a lost reading", async () => {
    const { state, render } = setup(true);
    state.setGpu(plain, 0);
    const none = await render(0);
    for (const [name] of EFFICIENCY_METRICS) expect(none).not.toContain(name);
    expect(none).not.toContain("DCGM_FI_PROF_");
    expect(sample(none, "DCGM_FI_DEV_GPU_UTIL", { UUID: "GPU-1" })).toBe(50);

    state.setGpu({ ...plain, smActiveRatio: 0.2 }, 1);
    expect(sample(await render(1), "gpu_sm_active_ratio", { uuid: "GPU-1" })).toBe(0.2);
    state.setGpu(plain, 2); // the field is gone (e.g. DCGM's profiling module stopped)
    const after = await render(2);
    expect(sample(after, "gpu_sm_active_ratio")).toBeUndefined();
    expect(sample(after, "DCGM_FI_PROF_SM_ACTIVE")).toBeUndefined();
  });

  it("--compat=dcgm also serves DCGM's names, units and labels", async () => {
    const { state, render } = setup(true);
    state.setGpu(busy, 0);
    state.setGpu(plain, 0);
    const text = await render(0);
    const l = {
      gpu: "0",
      UUID: "GPU-0",
      device: "nvidia0",
      modelName: "NVIDIA H100 80GB HBM3",
      Hostname: "node-a",
      pci_bus_id: "00000000:53:00.0",
    };
    expect(sample(text, "DCGM_FI_PROF_SM_ACTIVE", l)).toBe(0.812345);
    expect(sample(text, "DCGM_FI_PROF_SM_OCCUPANCY", l)).toBe(0.3);
    expect(sample(text, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", l)).toBe(0.5);
    expect(sample(text, "DCGM_FI_PROF_DRAM_ACTIVE", l)).toBe(0.4);
    expect(sample(text, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", l)).toBe(0.99);
    expect(sample(text, "DCGM_FI_PROF_PCIE_TX_BYTES", l)).toBe(4791810);
    expect(sample(text, "DCGM_FI_PROF_PCIE_RX_BYTES", l)).toBe(6935930);
    expect(sample(text, "DCGM_FI_PROF_NVLINK_TX_BYTES", l)).toBe(71234567890);
    expect(sample(text, "DCGM_FI_PROF_NVLINK_RX_BYTES", l)).toBe(0);
    expect(sample(text, "DCGM_FI_PROF_SM_ACTIVE", { UUID: "GPU-1" })).toBeUndefined();
    // the contract's own names are still there beside them
    expect(sample(text, "gpu_sm_active_ratio", { uuid: "GPU-0" })).toBe(0.812345);
  });
});
