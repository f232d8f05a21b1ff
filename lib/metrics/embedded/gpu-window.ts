import "server-only";
import type { Db } from "../../db.ts";
import { MINUTE_MS } from "../../core/time.ts";
import type { GpuShareAbove, GpuWindowStats } from "../source.ts";

// Embedded mode: GPU-window statistics from one grouped query over the 1-minute GPU aggregates in
// the window. MIG slices (uuid "…:gi<n>") are left out: the rules are about physical GPUs.

const PHYSICAL = { NOT: { gpuUuid: { contains: ":gi" } } };

function windowMinutes(from: Date, to: Date): number {
  return Math.max(1, Math.round((to.getTime() - from.getTime()) / MINUTE_MS));
}

export async function embeddedGpuWindow(db: Db, from: Date, to: Date): Promise<GpuWindowStats[]> {
  const rows = await db.gpuMinute.groupBy({
    by: ["hostId", "gpuUuid"],
    where: { minuteStart: { gte: from, lt: to }, ...PHYSICAL },
    _max: {
      util: true,
      memUsedBytes: true,
      memTotalBytes: true,
      processes: true,
      eccUncorrected: true,
      minuteStart: true,
      smActive: true,
    },
    _min: { eccUncorrected: true },
    _avg: {
      util: true,
      tempCelsius: true,
      thermalThrottleRatio: true,
      powerThrottleRatio: true,
      smActive: true,
    },
    _count: { util: true, tempCelsius: true, thermalThrottleRatio: true, smActive: true },
  });
  const minutes = windowMinutes(from, to);
  const share = (n: number) => Math.min(1, n / minutes);
  const num = (v: bigint | number | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    hostId: r.hostId,
    gpuUuid: r.gpuUuid,
    utilCoverage: share(r._count.util),
    utilMax: r._max.util,
    utilAvg: r._avg.util,
    memMaxBytes: num(r._max.memUsedBytes),
    memTotalBytes: num(r._max.memTotalBytes),
    processesMax: r._max.processes,
    tempAvg: r._avg.tempCelsius,
    tempCoverage: share(r._count.tempCelsius),
    thermalRatio: r._avg.thermalThrottleRatio,
    powerRatio: r._avg.powerThrottleRatio,
    throttleCoverage: share(r._count.thermalThrottleRatio),
    eccUncorrectedIncrease:
      r._max.eccUncorrected === null || r._min.eccUncorrected === null
        ? null
        : r._max.eccUncorrected - r._min.eccUncorrected,
    lastAt: r._max.minuteStart,
    smActiveMax: r._max.smActive,
    smActiveAvg: r._avg.smActive,
    smActiveCoverage: share(r._count.smActive),
  }));
}

/**
 * The share of each GPU's minutes above the threshold. A stored minute is that minute's mean
 * utilization, so this is the share of minutes whose mean was above it (Prometheus mode counts
 * scrapes instead; both are shares of readings in the window).
 */
export async function embeddedGpuShareAbove(
  db: Db,
  from: Date,
  to: Date,
  threshold: number,
): Promise<GpuShareAbove[]> {
  if (!Number.isFinite(threshold)) throw new RangeError(`threshold must be a number: ${threshold}`);
  const where = { minuteStart: { gte: from, lt: to }, ...PHYSICAL };
  const [all, above] = await Promise.all([
    db.gpuMinute.groupBy({ by: ["hostId", "gpuUuid"], where, _count: { util: true } }),
    db.gpuMinute.groupBy({
      by: ["hostId", "gpuUuid"],
      where: { ...where, util: { gt: threshold } },
      _count: { util: true },
    }),
  ]);
  const aboveBy = new Map(above.map((r) => [`${r.hostId}|${r.gpuUuid}`, r._count.util]));
  const minutes = windowMinutes(from, to);
  return all
    .filter((r) => r._count.util > 0)
    .map((r) => ({
      hostId: r.hostId,
      gpuUuid: r.gpuUuid,
      shareAbove: (aboveBy.get(`${r.hostId}|${r.gpuUuid}`) ?? 0) / r._count.util,
      coverage: Math.min(1, r._count.util / minutes),
    }));
}
