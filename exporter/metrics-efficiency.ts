// Efficiency gauges from DCGM's profiling fields: utilization.gpu is time-based (one busy SM
// reads 100 %), SM active says how much of the GPU kernels used. Each gauge registers the first
// time a GPU reports it, so hosts without profiling show neither series nor an empty HELP.

import { METRIC } from "./contract.ts";
import { Gauge, type Registry } from "./prom.ts";
import type { GpuReading, ProfilingKey } from "./readings.ts";
import type { StateView } from "./state.ts";

export const EFFICIENCY_METRICS: readonly [name: string, help: string, key: ProfilingKey][] = [
  [
    METRIC.smActive,
    "Fraction of cycles an SM had at least one warp assigned, averaged over all SMs, 0-1 (DCGM profiling).",
    "smActiveRatio",
  ],
  [
    METRIC.smOccupancy,
    "Warps resident on an SM as a fraction of the maximum, averaged over all SMs, 0-1 (DCGM profiling).",
    "smOccupancyRatio",
  ],
  [
    METRIC.tensorActive,
    "Fraction of cycles the tensor (HMMA) pipe was active, 0-1 (DCGM profiling).",
    "tensorActiveRatio",
  ],
  [
    METRIC.dramActive,
    "Fraction of cycles device memory was sending or receiving data, 0-1 (DCGM profiling).",
    "dramActiveRatio",
  ],
  [
    METRIC.graphicsEngineActive,
    "Fraction of time the graphics/compute engine was active, 0-1 (DCGM profiling).",
    "graphicsEngineActiveRatio",
  ],
  [
    METRIC.pcieTx,
    "Bytes per second the GPU sent over PCIe, headers included, averaged over DCGM's sampling interval.",
    "pcieTxBytesPerSecond",
  ],
  [
    METRIC.pcieRx,
    "Bytes per second the GPU received over PCIe, headers included, averaged over DCGM's sampling interval.",
    "pcieRxBytesPerSecond",
  ],
  [
    METRIC.nvlinkTx,
    "Bytes per second the GPU sent over all its NVLinks, averaged over DCGM's sampling interval.",
    "nvlinkTxBytesPerSecond",
  ],
  [
    METRIC.nvlinkRx,
    "Bytes per second the GPU received over all its NVLinks, averaged over DCGM's sampling interval.",
    "nvlinkRxBytesPerSecond",
  ],
];

export interface LazyGaugeDef {
  name: string;
  help: string;
  value: (g: GpuReading) => number | undefined;
}

/**
 * Per-GPU gauges registered on first use. Returns a refresher that resets them and sets each
 * GPU's value where it has one; a GPU without the reading gets no series (never a 0).
 */
export function lazyGpuGauges(
  registry: Registry,
  defs: readonly LazyGaugeDef[],
  labelNames: readonly string[],
  labels: (g: GpuReading) => Record<string, string>,
): (view: StateView) => void {
  const gauges = defs.map((d) => ({
    ...d,
    gauge: new Gauge({ name: d.name, help: d.help, labelNames, registers: [] }),
    registered: false,
  }));
  return (view) => {
    for (const g of gauges) {
      g.gauge.reset();
      for (const gpu of view.gpus) {
        const v = g.value(gpu);
        if (v === undefined) continue;
        if (!g.registered) {
          registry.registerMetric(g.gauge);
          g.registered = true;
        }
        g.gauge.set(labels(gpu), v);
      }
    }
  };
}

export function createEfficiencyMetrics(registry: Registry): (view: StateView) => void {
  return lazyGpuGauges(
    registry,
    EFFICIENCY_METRICS.map(([name, help, key]) => ({ name, help, value: (g) => g[key] })),
    ["gpu", "uuid"],
    (g) => ({ gpu: String(g.index), uuid: g.uuid }),
  );
}
