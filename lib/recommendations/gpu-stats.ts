import { mean, p95 } from "./stats.ts";
import type { HourRow, RecoHost } from "./types.ts";

// Per-GPU figures over a window: p95 of the hourly p95 utilizations, mean utilization, peak memory.

export interface GpuWindow {
  uuid: string;
  index: number;
  name: string;
  hours: number;
  utilP95: number | null;
  utilMean: number | null;
  memPeakBytes: bigint | null;
  memTotalBytes: bigint;
  rows: HourRow[];
}

export function gpuWindows(host: RecoHost, rows: readonly HourRow[]): GpuWindow[] {
  return host.gpus
    .filter((g) => g.parentUuid === null)
    .map((g) => {
      const mine = rows.filter((r) => r.gpuKey === g.uuid);
      let peak: bigint | null = null;
      let total = g.memoryTotalBytes;
      for (const r of mine) {
        if (r.memPeakBytes !== null && (peak === null || r.memPeakBytes > peak))
          peak = r.memPeakBytes;
        if (r.memTotalBytes !== null && r.memTotalBytes > total) total = r.memTotalBytes;
      }
      return {
        uuid: g.uuid,
        index: g.index,
        name: g.name,
        hours: mine.filter((r) => r.upSeconds > 0).length,
        utilP95: p95(mine.flatMap((r) => (r.utilP95 === null ? [] : [r.utilP95]))),
        utilMean: mean(mine.flatMap((r) => (r.utilMean === null ? [] : [r.utilMean]))),
        memPeakBytes: peak,
        memTotalBytes: total,
        rows: mine,
      };
    });
}

/** In use: it ran something (mean ≥ 5 % or p95 ≥ 5 %) or holds more than 1 % of its memory. */
export function inUse(g: GpuWindow): boolean {
  const busy = (g.utilMean ?? 0) >= 0.05 || (g.utilP95 ?? 0) >= 0.05;
  const held = g.memPeakBytes !== null && g.memPeakBytes * 100n > g.memTotalBytes;
  return busy || held;
}
