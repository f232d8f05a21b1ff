// One prom-client registry per host, filled from that host's last collected state just before
// a scrape renders it: a scrape copies numbers from memory and never does I/O. The copy is
// wrapped so that nothing in it can fail the scrape.

import { Counter, Gauge, Registry } from "prom-client";
import { createDcgmCompat } from "./compat-dcgm.ts";
import { HOLDER_LABELS } from "./contract.ts";
import { holderLabels } from "./holders/holder.ts";
import type { Logger } from "./log.ts";
import { createEfficiencyMetrics } from "./metrics-efficiency.ts";
import { HOST_LABELS, HostInfoMetric, createInterruptionMetrics } from "./metrics-host.ts";
import { createVgpuMetrics } from "./metrics-vgpu.ts";
import type { GpuReading } from "./readings.ts";
import type { StateView } from "./state.ts";

export { HOST_LABELS };

export interface HostMetricsOptions {
  /** gpu_host_info labels: HOST_LABELS first, then any extra ones */
  hostInfo: Record<string, string>;
  compatDcgm: boolean;
  version: string;
  log: Logger;
}

type NumericKey = {
  [K in keyof GpuReading]-?: GpuReading[K] extends number | undefined ? K : never;
}[keyof GpuReading];

const PER_GPU: [name: string, help: string, key: NumericKey][] = [
  [
    "gpu_utilization_ratio",
    "Fraction of time a kernel ran on the GPU (SM busy), 0-1.",
    "utilizationRatio",
  ],
  [
    "gpu_memory_utilization_ratio",
    "Fraction of time device memory was read or written, 0-1.",
    "memoryUtilizationRatio",
  ],
  ["gpu_memory_total_bytes", "Framebuffer memory installed.", "memoryTotalBytes"],
  ["gpu_memory_used_bytes", "Framebuffer memory allocated.", "memoryUsedBytes"],
  ["gpu_memory_free_bytes", "Framebuffer memory free.", "memoryFreeBytes"],
  ["gpu_temperature_celsius", "GPU core temperature.", "temperatureCelsius"],
  ["gpu_power_draw_watts", "Power drawn by the board.", "powerDrawWatts"],
  ["gpu_power_limit_watts", "Power limit enforced on the board.", "powerLimitWatts"],
  ["gpu_sm_clock_hertz", "Current SM clock.", "smClockHertz"],
  ["gpu_memory_clock_hertz", "Current memory clock.", "memoryClockHertz"],
  ["gpu_fan_speed_ratio", "Intended fan speed as a fraction of its maximum, 0-1.", "fanSpeedRatio"],
  [
    "gpu_performance_state",
    "Performance state, 0 (P0, maximum) to 15 (P15, minimum).",
    "performanceState",
  ],
];

export class HostMetrics {
  readonly registry = new Registry();
  private readonly refreshers: ((view: StateView) => void)[] = [];
  private readonly hostInfo: HostInfoMetric;

  constructor(private readonly opts: HostMetricsOptions) {
    const r = [this.registry];
    const g = ["gpu", "uuid"];
    const label = (x: GpuReading) => ({ gpu: String(x.index), uuid: x.uuid });

    const info = new Gauge({
      name: "gpu_info",
      help: "GPU identity; always 1.",
      labelNames: [...g, "name", "pci_bus_id", "driver_version", "mig_mode", "virtualization_mode"],
      registers: r,
    });
    const perGpu = PER_GPU.map(
      ([name, help, key]) => [new Gauge({ name, help, labelNames: g, registers: r }), key] as const,
    );
    const ecc = new Counter({
      name: "gpu_ecc_errors_total",
      help: "ECC errors since the driver loaded (volatile count).",
      labelNames: [...g, "type"],
      registers: r,
    });
    const events = new Gauge({
      name: "gpu_clock_event_active",
      help: "1 while this clock event (throttle) reason holds clocks down, else 0.",
      labelNames: [...g, "reason"],
      registers: r,
    });
    this.refreshers.push((view) => {
      for (const m of [info, ecc, events, ...perGpu.map(([m]) => m)]) m.reset();
      for (const x of view.gpus) {
        const l = label(x);
        const mode = view.details.get(x.uuid)?.virtualizationMode;
        info.set(
          {
            ...l,
            name: x.name ?? "",
            pci_bus_id: x.pciBusId ?? "",
            driver_version: x.driverVersion ?? "",
            mig_mode: x.migEnabled ? "enabled" : "disabled",
            // only where a -q -x snapshot said it (nvidia-smi source)
            ...(mode ? { virtualization_mode: mode } : {}),
          },
          1,
        );
        for (const [m, key] of perGpu) {
          const v = x[key];
          if (v !== undefined) m.set(l, v);
        }
        if (x.eccCorrectedTotal !== undefined)
          ecc.inc({ ...l, type: "corrected" }, x.eccCorrectedTotal);
        if (x.eccUncorrectedTotal !== undefined) {
          ecc.inc({ ...l, type: "uncorrected" }, x.eccUncorrectedTotal);
        }
        for (const [reason, on] of Object.entries(x.clockEvents)) {
          events.set({ ...l, reason }, on ? 1 : 0);
        }
      }
    });
    this.refreshers.push(createEfficiencyMetrics(this.registry));
    this.addProcessesAndMig();
    this.refreshers.push(createVgpuMetrics(this.registry));
    this.hostInfo = new HostInfoMetric(this.registry, opts.hostInfo);
    this.refreshers.push(createInterruptionMetrics(this.registry));
    this.addSelfMetrics();
    if (opts.compatDcgm) {
      this.refreshers.push(createDcgmCompat(this.registry, opts.hostInfo.hostname ?? ""));
    }
  }

  private addProcessesAndMig(): void {
    const r = [this.registry];
    const count = new Gauge({
      name: "gpu_processes",
      help: "Compute processes running on the GPU.",
      labelNames: ["gpu", "uuid"],
      registers: r,
    });
    const procMem = new Gauge({
      name: "gpu_process_memory_used_bytes",
      help: "GPU memory used by a compute process.",
      labelNames: ["gpu", "uuid", "pid", "process_name", "gpu_instance_id", ...HOLDER_LABELS],
      registers: r,
    });
    const migLabels = ["gpu", "uuid", "gpu_instance_id", "mig_profile"];
    const migUsed = new Gauge({
      name: "gpu_mig_memory_used_bytes",
      help: "Memory used in a MIG GPU instance.",
      labelNames: migLabels,
      registers: r,
    });
    const migTotal = new Gauge({
      name: "gpu_mig_memory_total_bytes",
      help: "Memory of a MIG GPU instance.",
      labelNames: migLabels,
      registers: r,
    });
    this.refreshers.push((view) => {
      for (const m of [count, procMem, migUsed, migTotal]) m.reset();
      const index = new Map(view.gpus.map((x) => [x.uuid, String(x.index)]));
      if (view.processes) {
        const perGpu = new Map<string, number>(view.gpus.map((x) => [x.uuid, 0]));
        for (const p of view.processes) {
          const gpu = index.get(p.gpuUuid);
          if (gpu === undefined) continue;
          perGpu.set(p.gpuUuid, (perGpu.get(p.gpuUuid) ?? 0) + 1);
          if (p.usedMemoryBytes === undefined) continue;
          const l = { gpu, uuid: p.gpuUuid, pid: String(p.pid), process_name: p.processName };
          const gi =
            p.gpuInstanceId === undefined ? {} : { gpu_instance_id: String(p.gpuInstanceId) };
          procMem.set({ ...l, ...gi, ...holderLabels(p.holder) }, p.usedMemoryBytes);
        }
        for (const [uuid, n] of perGpu) count.set({ gpu: index.get(uuid) ?? "", uuid }, n);
      }
      for (const m of view.mig) {
        const gpu = index.get(m.gpuUuid);
        if (gpu === undefined) continue;
        const l = {
          gpu,
          uuid: m.gpuUuid,
          gpu_instance_id: String(m.gpuInstanceId),
          mig_profile: m.profile,
        };
        if (m.memoryUsedBytes !== undefined) migUsed.set(l, m.memoryUsedBytes);
        if (m.memoryTotalBytes !== undefined) migTotal.set(l, m.memoryTotalBytes);
      }
    });
  }

  private addSelfMetrics(): void {
    const r = [this.registry];
    const build = new Gauge({
      name: "gpu_exporter_build_info",
      help: "Exporter build; always 1.",
      labelNames: ["version", "node_version"],
      registers: r,
    });
    build.set({ version: this.opts.version, node_version: process.version }, 1);
    const success = new Gauge({
      name: "gpu_exporter_collector_success",
      help: "1 if the collector's last run succeeded, else 0.",
      labelNames: ["collector"],
      registers: r,
    });
    const duration = new Gauge({
      name: "gpu_exporter_collector_duration_seconds",
      help: "How long the collector's last run took.",
      labelNames: ["collector"],
      registers: r,
    });
    this.refreshers.push((view) => {
      success.reset();
      duration.reset();
      for (const [collector, s] of view.collectors) {
        success.set({ collector }, s.success ? 1 : 0);
        if (s.durationSeconds !== undefined) duration.set({ collector }, s.durationSeconds);
      }
    });
  }

  /** New gpu_host_info values (cloud metadata read again); the label names stay. */
  setHostInfo(info: Record<string, string>): void {
    this.hostInfo.set(info);
  }

  /** Copy the state into the registry and render it; never throws. */
  async render(view: StateView): Promise<string> {
    for (const refresh of this.refreshers) {
      try {
        refresh(view);
      } catch (err) {
        this.opts.log.limited(`refresh:${String(err)}`, "error", "metric refresh failed", { err });
      }
    }
    return this.registry.metrics();
  }
}
