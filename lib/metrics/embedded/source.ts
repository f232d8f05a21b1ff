import "server-only";
import type { Db } from "../../db.ts";
import { bucketMs, downsample } from "../downsample.ts";
import { embeddedGpuShareAbove, embeddedGpuWindow } from "./gpu-window.ts";
import { embeddedHourSamples } from "./hour-samples.ts";
import { embeddedWorkHours } from "./work-hours.ts";
import type {
  CurrentGpu,
  FleetSeries,
  GpuSeries,
  MetricsSource,
  ProcessInfo,
  SourceHealth,
  TimeRange,
} from "../source.ts";

// Reads what the embedded collector stored: GPU inventory, 1-minute aggregates, host state.

const NOT_MIG = { NOT: { gpuUuid: { contains: ":gi" } } };

export function createEmbeddedSource(db: Db, intervalS: number): MetricsSource {
  const staleMs = () => 2 * intervalS * 1000 + 5_000;

  return {
    mode: "embedded",

    async currentGpus(): Promise<CurrentGpu[]> {
      const now = Date.now();
      const [gpus, minutes] = await Promise.all([
        db.gpu.findMany({ include: { host: { select: { hostname: true, state: true } } } }),
        db.gpuMinute.findMany({
          where: { minuteStart: { gte: new Date(now - 3 * 60_000) } },
          orderBy: { minuteStart: "asc" },
        }),
      ]);
      const latest = new Map(minutes.map((m) => [m.gpuUuid, m]));
      return gpus.map((g) => {
        const m = latest.get(g.uuid);
        const reporting =
          g.host.state === "up" && g.lastSeen !== null && now - g.lastSeen.getTime() <= staleMs();
        const num = (v: bigint | number | null | undefined) => (v == null ? null : Number(v));
        return {
          hostId: g.hostId,
          hostname: g.host.hostname,
          uuid: g.uuid,
          index: g.index,
          name: g.name,
          util: reporting ? (m?.util ?? null) : null,
          memUsedBytes: reporting ? num(m?.memUsedBytes) : null,
          memTotalBytes: num(m?.memTotalBytes) ?? Number(g.memoryTotalBytes),
          powerWatts: reporting ? (m?.powerWatts ?? null) : null,
          tempCelsius: reporting ? (m?.tempCelsius ?? null) : null,
          processes: reporting ? (m?.processes ?? null) : null,
          smActive: reporting ? (m?.smActive ?? null) : null,
          lastSeen: g.lastSeen,
          reporting,
          parentUuid: g.parentUuid,
          migProfile: g.migProfile,
        };
      });
    },

    async fleetSeries(range: TimeRange): Promise<FleetSeries> {
      const rows = await db.gpuMinute.groupBy({
        by: ["minuteStart"],
        where: { minuteStart: { gte: range.from, lt: range.to }, ...NOT_MIG },
        _avg: { util: true },
        _sum: { memUsedBytes: true },
        _count: { _all: true },
      });
      const step = bucketMs(range.from, range.to, range.maxPoints);
      const t = (r: (typeof rows)[number]) => r.minuteStart.getTime();
      return {
        util: downsample(
          rows.map((r) => ({ t: t(r), v: r._avg.util, weight: r._count._all })),
          step,
        ),
        memUsedBytes: downsample(
          rows.map((r) => ({
            t: t(r),
            v: r._sum.memUsedBytes === null ? null : Number(r._sum.memUsedBytes),
          })),
          step,
        ),
        gpusReporting: downsample(
          rows.map((r) => ({ t: t(r), v: r._count._all })),
          step,
        ),
      };
    },

    async gpuSeries(hostId: string, range: TimeRange): Promise<GpuSeries[]> {
      const [gpus, rows] = await Promise.all([
        db.gpu.findMany({ where: { hostId, parentUuid: null }, orderBy: { index: "asc" } }),
        db.gpuMinute.findMany({
          where: { hostId, minuteStart: { gte: range.from, lt: range.to }, ...NOT_MIG },
          orderBy: { minuteStart: "asc" },
        }),
      ]);
      const step = bucketMs(range.from, range.to, range.maxPoints);
      return gpus.map((g) => {
        const mine = rows.filter((r) => r.gpuUuid === g.uuid);
        const series = (pick: (r: (typeof mine)[number]) => number | null) =>
          downsample(
            mine.map((r) => ({ t: r.minuteStart.getTime(), v: pick(r) })),
            step,
          );
        return {
          uuid: g.uuid,
          index: g.index,
          name: g.name,
          util: series((r) => r.util),
          memUsedBytes: series((r) => (r.memUsedBytes === null ? null : Number(r.memUsedBytes))),
          powerWatts: series((r) => r.powerWatts),
          tempCelsius: series((r) => r.tempCelsius),
          smClockHz: series((r) => r.smClockHz),
          smActive: mine.some((r) => r.smActive !== null) ? series((r) => r.smActive) : [],
        };
      });
    },

    async processes(hostId: string): Promise<ProcessInfo[]> {
      const host = await db.host.findUnique({
        where: { id: hostId },
        select: { processes: true, state: true },
      });
      if (!host || host.state !== "up") return [];
      try {
        return JSON.parse(host.processes) as ProcessInfo[];
      } catch {
        return [];
      }
    },

    async health(): Promise<SourceHealth> {
      const [latest, hosts, down] = await Promise.all([
        db.host.aggregate({ _max: { lastSeen: true } }),
        db.host.count({ where: { target: { not: null } } }),
        db.host.findFirst({
          where: { state: "down" },
          select: { hostname: true, lastError: true },
        }),
      ]);
      const lastSuccess = latest._max.lastSeen;
      if (hosts === 0) return { ok: true, lastSuccess, error: null };
      const fresh = lastSuccess !== null && Date.now() - lastSuccess.getTime() <= staleMs();
      if (!fresh) return { ok: false, lastSuccess, error: "no exporter has answered recently" };
      return {
        ok: true,
        lastSuccess,
        error: down ? `${down.hostname}: ${down.lastError ?? "down"}` : null,
      };
    },

    gpuWindow: (from, to) => embeddedGpuWindow(db, from, to),
    gpuShareAbove: (from, to, threshold) => embeddedGpuShareAbove(db, from, to, threshold),
    hourSamples: (from, to) => embeddedHourSamples(db, from, to),
    async ledgerStart() {
      const first = await db.hostMinute.findFirst({
        orderBy: { minuteStart: "asc" },
        select: { minuteStart: true },
      });
      return first?.minuteStart ?? null;
    },
    workHours: (from, to) => embeddedWorkHours(db, from, to),
  };
}
