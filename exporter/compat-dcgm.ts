// --compat=dcgm: the same readings again under dcgm-exporter's names, units and labels, so
// Grafana dashboards built for dcgm-exporter work unchanged. dcgm-exporter's camelCase
// modelName label is part of that contract even though promtool's lint dislikes it.

import { Gauge, type Registry } from "./prom.ts";
import { lazyGpuGauges } from "./metrics-efficiency.ts";
import type { GpuReading, ProfilingKey } from "./readings.ts";
import type { StateView } from "./state.ts";

const MIB = 1024 ** 2;

const COMPAT: [name: string, help: string, value: (g: GpuReading) => number | undefined][] = [
  ["DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", (g) => pct(g.utilizationRatio)],
  ["DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", (g) => pct(g.memoryUtilizationRatio)],
  ["DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", (g) => mib(g.memoryUsedBytes)],
  ["DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", (g) => mib(g.memoryFreeBytes)],
  ["DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", (g) => g.temperatureCelsius],
  ["DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", (g) => g.powerDrawWatts],
  ["DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", (g) => mhz(g.smClockHertz)],
  ["DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", (g) => mhz(g.memoryClockHertz)],
];

// dcgm-exporter's HELP texts (etc/dcp-metrics-included.csv; NVLink as its older CSVs wrote it);
// DCGM's units as they are: ratios 0-1, bytes per second.
const COMPAT_PROFILING: [name: string, help: string, key: ProfilingKey][] = [
  [
    "DCGM_FI_PROF_SM_ACTIVE",
    "The ratio of cycles an SM has at least 1 warp assigned.",
    "smActiveRatio",
  ],
  [
    "DCGM_FI_PROF_SM_OCCUPANCY",
    "The ratio of number of warps resident on an SM.",
    "smOccupancyRatio",
  ],
  [
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
    "Ratio of cycles the tensor (HMMA) pipe is active.",
    "tensorActiveRatio",
  ],
  [
    "DCGM_FI_PROF_DRAM_ACTIVE",
    "Ratio of cycles the device memory interface is active sending or receiving data.",
    "dramActiveRatio",
  ],
  [
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
    "Ratio of time the graphics engine is active.",
    "graphicsEngineActiveRatio",
  ],
  [
    "DCGM_FI_PROF_PCIE_TX_BYTES",
    "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.",
    "pcieTxBytesPerSecond",
  ],
  [
    "DCGM_FI_PROF_PCIE_RX_BYTES",
    "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second.",
    "pcieRxBytesPerSecond",
  ],
  [
    "DCGM_FI_PROF_NVLINK_TX_BYTES",
    "The rate of data not including protocol headers transmitted over NVLink (in B/s).",
    "nvlinkTxBytesPerSecond",
  ],
  [
    "DCGM_FI_PROF_NVLINK_RX_BYTES",
    "The rate of data not including protocol headers received over NVLink (in B/s).",
    "nvlinkRxBytesPerSecond",
  ],
];

function pct(ratio: number | undefined): number | undefined {
  return ratio === undefined ? undefined : Math.round(ratio * 10000) / 100;
}
function mib(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : Math.round(bytes / MIB);
}
function mhz(hz: number | undefined): number | undefined {
  return hz === undefined ? undefined : Math.round(hz / 1e6);
}

export function createDcgmCompat(registry: Registry, hostname: string): (view: StateView) => void {
  const labelNames = ["gpu", "UUID", "device", "modelName", "Hostname", "pci_bus_id"];
  const labelsOf = (g: GpuReading) => ({
    gpu: String(g.index),
    UUID: g.uuid,
    device: `nvidia${g.index}`,
    modelName: g.name ?? "",
    Hostname: hostname,
    pci_bus_id: g.pciBusId ?? "",
  });
  const gauges = COMPAT.map(
    ([name, help, value]) =>
      [new Gauge({ name, help, labelNames, registers: [registry] }), value] as const,
  );
  // registered only once a GPU has the field, like the gpu_* efficiency gauges
  const profiling = lazyGpuGauges(
    registry,
    COMPAT_PROFILING.map(([name, help, key]) => ({ name, help, value: (g) => g[key] })),
    labelNames,
    labelsOf,
  );
  return (view) => {
    for (const [gauge] of gauges) gauge.reset();
    for (const g of view.gpus) {
      const labels = labelsOf(g);
      for (const [gauge, value] of gauges) {
        const v = value(g);
        if (v !== undefined) gauge.set(labels, v);
      }
    }
    profiling(view);
  };
}
