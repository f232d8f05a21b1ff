import "server-only";
import type { Db } from "../db.ts";
import type { AlertMetrics, GpuWindowStats } from "./metrics.ts";

// Embedded mode: one grouped query over the 1-minute GPU aggregates in the window.

const MINUTE = 60_000;

export function createEmbeddedAlertMetrics(db: Db): AlertMetrics {
  return {
    mode: "embedded",
    async gpuWindow(from: Date, to: Date): Promise<GpuWindowStats[]> {
      const rows = await db.gpuMinute.groupBy({
        by: ["hostId", "gpuUuid"],
        where: { minuteStart: { gte: from, lt: to }, NOT: { gpuUuid: { contains: ":gi" } } },
        _max: {
          util: true,
          memUsedBytes: true,
          memTotalBytes: true,
          processes: true,
          eccUncorrected: true,
          minuteStart: true,
        },
        _min: { eccUncorrected: true },
        _avg: {
          util: true,
          tempCelsius: true,
          thermalThrottleRatio: true,
          powerThrottleRatio: true,
        },
        _count: { util: true, tempCelsius: true, thermalThrottleRatio: true },
      });
      const minutes = Math.max(1, Math.round((to.getTime() - from.getTime()) / MINUTE));
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
      }));
    },
  };
}
