import type { GpuShareAbove, GpuWindowStats, MetricsSource } from "../metrics/source.ts";
import { UNUSED_WINDOW_READS } from "./fake-metrics.ts";

// A MetricsSource whose GPU windows come from a script: util(hostId, uuid, minuteStartMs) gives a
// GPU's utilization (0-1) in that minute, or null when it did not report. The policies' lifecycle
// tests drive a simulated fleet through time with it, on a pinned clock.

export type UtilScript = (hostId: string, uuid: string, t: number) => number | null;

export function scriptedMetrics(
  gpus: () => Promise<{ hostId: string; uuid: string }[]>,
  util: UtilScript,
): MetricsSource {
  const gpuWindow = async (from: Date, to: Date): Promise<GpuWindowStats[]> => {
    const minutes = Math.max(1, Math.floor((to.getTime() - from.getTime()) / 60_000));
    const out: GpuWindowStats[] = [];
    for (const g of await gpus()) {
      let n = 0;
      let max: number | null = null;
      let sum = 0;
      let last: number | null = null;
      for (let i = 0; i < minutes; i++) {
        const t = from.getTime() + i * 60_000;
        const v = util(g.hostId, g.uuid, t);
        if (v === null) continue;
        n++;
        sum += v;
        max = max === null ? v : Math.max(max, v);
        last = t;
      }
      if (n === 0) continue;
      out.push({
        hostId: g.hostId,
        gpuUuid: g.uuid,
        utilCoverage: n / minutes,
        utilMax: max,
        utilAvg: sum / n,
        memMaxBytes: 0,
        memTotalBytes: 40 * 1024 ** 3,
        processesMax: 0,
        tempAvg: null,
        tempCoverage: 0,
        thermalRatio: null,
        powerRatio: null,
        throttleCoverage: 0,
        eccUncorrectedIncrease: null,
        lastAt: last === null ? null : new Date(last),
      });
    }
    return out;
  };
  const gpuShareAbove = async (from: Date, to: Date, threshold: number) => {
    const minutes = Math.max(1, Math.floor((to.getTime() - from.getTime()) / 60_000));
    const out: GpuShareAbove[] = [];
    for (const g of await gpus()) {
      let n = 0;
      let above = 0;
      for (let i = 0; i < minutes; i++) {
        const v = util(g.hostId, g.uuid, from.getTime() + i * 60_000);
        if (v === null) continue;
        n++;
        if (v > threshold) above++;
      }
      if (n > 0)
        out.push({
          hostId: g.hostId,
          gpuUuid: g.uuid,
          shareAbove: above / n,
          coverage: n / minutes,
        });
    }
    return out;
  };
  const unused = (what: string) => () => Promise.reject(new Error(`${what} not scripted`));
  return {
    mode: "embedded",
    currentGpus: unused("currentGpus"),
    fleetSeries: unused("fleetSeries"),
    gpuSeries: unused("gpuSeries"),
    processes: unused("processes"),
    health: unused("health"),
    ...UNUSED_WINDOW_READS,
    gpuWindow,
    gpuShareAbove,
  };
}
