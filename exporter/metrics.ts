// One prom-client registry per host, filled from that host's collected state once per
// collection tick and rendered then (exposition.ts): a scrape sends a ready buffer, renders
// nothing and never does I/O. The copy is wrapped so that nothing in it can fail the scrape.

import { HOLDER_LABELS, METRIC } from "./contract.ts";
import { Counter, Gauge, Registry } from "./prom.ts";
import { createDcgmCompat } from "./compat-dcgm.ts";
import { holderLabels } from "./holders/holder.ts";
import { ExpositionCache, type Exposition, type Format } from "./exposition.ts";
import type { Logger } from "./log.ts";
import { createEfficiencyMetrics } from "./metrics-efficiency.ts";
import { HOST_LABELS, HostInfoMetric, createInterruptionMetrics } from "./metrics-host.ts";
import { createVgpuMetrics } from "./metrics-vgpu.ts";
import { createWorkMetrics } from "./metrics-work.ts";
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
  [METRIC.util, "Fraction of time a kernel ran on the GPU (SM busy), 0-1.", "utilizationRatio"],
  [
    METRIC.memUtil,
    "Fraction of time device memory was read or written, 0-1.",
    "memoryUtilizationRatio",
  ],
  [METRIC.memTotal, "Framebuffer memory installed.", "memoryTotalBytes"],
  [METRIC.memUsed, "Framebuffer memory allocated.", "memoryUsedBytes"],
  [METRIC.memFree, "Framebuffer memory free.", "memoryFreeBytes"],
  [METRIC.temp, "GPU core temperature.", "temperatureCelsius"],
  [METRIC.power, "Power drawn by the board.", "powerDrawWatts"],
  [METRIC.powerLimit, "Power limit enforced on the board.", "powerLimitWatts"],
  [METRIC.smClock, "Current SM clock.", "smClockHertz"],
  [METRIC.memClock, "Current memory clock.", "memoryClockHertz"],
  [METRIC.fanSpeed, "Intended fan speed as a fraction of its maximum, 0-1.", "fanSpeedRatio"],
  [METRIC.pstate, "Performance state, 0 (P0, maximum) to 15 (P15, minimum).", "performanceState"],
];

export class HostMetrics {
  readonly registry: Registry = new Registry();
  private readonly refreshers: ((view: StateView) => void)[] = [];
  private readonly hostInfo: HostInfoMetric;
  private readonly cache: ExpositionCache;

  constructor(private readonly opts: HostMetricsOptions) {
    this.cache = new ExpositionCache(this.registry, opts.log);
    const r = [this.registry];
    const g = ["gpu", "uuid"];
    const label = (x: GpuReading) => ({ gpu: String(x.index), uuid: x.uuid });

    const info = new Gauge({
      name: METRIC.gpuInfo,
      help: "GPU identity; always 1.",
      labelNames: [...g, "name", "pci_bus_id", "driver_version", "mig_mode", "virtualization_mode"],
      registers: r,
    });
    const perGpu = PER_GPU.map(
      ([name, help, key]) => [new Gauge({ name, help, labelNames: g, registers: r }), key] as const,
    );
    const ecc = new Counter({
      name: METRIC.ecc,
      help: "ECC errors since the driver loaded (volatile count).",
      labelNames: [...g, "type"],
      registers: r,
    });
    const events = new Gauge({
      name: METRIC.clockEvent,
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
    this.refreshers.push(createWorkMetrics(this.registry));
    this.addSelfMetrics();
    if (opts.compatDcgm) {
      this.refreshers.push(createDcgmCompat(this.registry, opts.hostInfo.hostname ?? ""));
    }
  }

  private addProcessesAndMig(): void {
    const r = [this.registry];
    const count = new Gauge({
      name: METRIC.processes,
      help: "Compute processes running on the GPU.",
      labelNames: ["gpu", "uuid"],
      registers: r,
    });
    const procMem = new Gauge({
      name: METRIC.processMemory,
      help: "GPU memory used by a compute process.",
      labelNames: ["gpu", "uuid", "pid", "process_name", "gpu_instance_id", ...HOLDER_LABELS],
      registers: r,
    });
    const migLabels = ["gpu", "uuid", "gpu_instance_id", "mig_profile"];
    const migUsed = new Gauge({
      name: METRIC.migMemUsed,
      help: "Memory used in a MIG GPU instance.",
      labelNames: migLabels,
      registers: r,
    });
    const migTotal = new Gauge({
      name: METRIC.migMemTotal,
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
      name: METRIC.buildInfo,
      help: "Exporter build; always 1.",
      labelNames: ["version", "node_version"],
      registers: r,
    });
    build.set({ version: this.opts.version, node_version: process.version }, 1);
    const success = new Gauge({
      name: METRIC.collectorSuccess,
      help: "1 if the collector's last run succeeded, else 0.",
      labelNames: ["collector"],
      registers: r,
    });
    const duration = new Gauge({
      name: METRIC.collectorDuration,
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

  /**
   * New gpu_host_info values (cloud metadata read again; the label names stay), published at once
   * with the state in `view` (host_detect's success) rather than at the next tick.
   */
  setHostInfo(info: Record<string, string>, view?: StateView): Promise<void> {
    return this.cache.publish(async () => {
      this.hostInfo.set(info);
      if (view) await this.refresh(view);
    });
  }

  /** Copy the state into the registry and render what scrapers ask for; never rejects. */
  publish(view: StateView): Promise<void> {
    return this.cache.publish(() => this.refresh(view));
  }

  /** The body a scrape gets: made at the last publish (or now, the first time it is asked for). */
  exposition(format: Format, acceptGzip: boolean): Promise<Exposition> {
    return this.cache.get(format, acceptGzip);
  }

  /** registry renderings so far (tests: a scrape adds none) */
  get renders(): number {
    return this.cache.renders;
  }

  /** publish(view), then the text body (tests and golden files). */
  async render(view: StateView): Promise<string> {
    await this.publish(view);
    return (await this.exposition("text", false)).body.toString("utf8");
  }

  /** Each refresher in turn, letting the event loop run between them (scrapes wait for none). */
  private async refresh(view: StateView): Promise<void> {
    for (const refresh of this.refreshers) {
      try {
        refresh(view);
      } catch (err) {
        this.opts.log.limited(`refresh:${String(err)}`, "error", "metric refresh failed", { err });
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
