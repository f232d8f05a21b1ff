// --compat=dcgm: the same readings again under dcgm-exporter's names, units and labels, so
// Grafana dashboards built for dcgm-exporter work unchanged. dcgm-exporter's camelCase
// modelName label is part of that contract even though promtool's lint dislikes it.

import { Gauge, type Registry } from "prom-client";
import type { GpuReading } from "./readings.ts";
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
  const gauges = COMPAT.map(
    ([name, help, value]) =>
      [new Gauge({ name, help, labelNames, registers: [registry] }), value] as const,
  );
  return (view) => {
    for (const [gauge] of gauges) gauge.reset();
    for (const g of view.gpus) {
      const labels = {
        gpu: String(g.index),
        UUID: g.uuid,
        device: `nvidia${g.index}`,
        modelName: g.name ?? "",
        Hostname: hostname,
        pci_bus_id: g.pciBusId ?? "",
      };
      for (const [gauge, value] of gauges) {
        const v = value(g);
        if (v !== undefined) gauge.set(labels, v);
      }
    }
  };
}
