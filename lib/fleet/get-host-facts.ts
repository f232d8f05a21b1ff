import "server-only";
import { HOUR_MS } from "../core/time.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { getMetricsSource } from "../metrics/index.ts";
import type { MetricsSource } from "../metrics/source.ts";
import { busyInefficient } from "../recommendations/rule-inefficient.ts";
import type { HourWindow } from "../recommendations/types.ts";
import type { HostFactsView } from "./host-facts.ts";

/**
 * Closed hours the instance page looks back over for busy-but-inefficient GPUs: each is one
 * fleet-wide gpuWindow read, so few. A failing metrics source leaves the figures empty (the page's
 * banner says why) rather than failing the page.
 */
export const INEFFICIENT_LOOKBACK_HOURS = 3;

/** The instance page's host facts (see host-facts.ts); null when the host is gone. */
export async function getHostFacts(
  hostId: string,
  now: Date,
  deps: { client?: Db; source?: MetricsSource } = {},
): Promise<HostFactsView | null> {
  const client = deps.client ?? defaultDb;
  const source = deps.source ?? getMetricsSource();
  const host = await client.host.findUnique({
    where: { id: hostId },
    include: { gpus: { where: { parentUuid: null }, orderBy: { index: "asc" } } },
  });
  if (!host) return null;
  const end = new Date(now.getTime() - (now.getTime() % HOUR_MS));
  const starts = Array.from(
    { length: INEFFICIENT_LOOKBACK_HOURS },
    (_, i) => new Date(end.getTime() - (INEFFICIENT_LOOKBACK_HOURS - i) * HOUR_MS),
  );
  const [current, windows, rows] = await Promise.all([
    source.currentGpus().catch(() => []),
    Promise.all(
      starts.map(async (from): Promise<HourWindow> => ({
        hourStart: from,
        stats: (
          await source.gpuWindow(from, new Date(from.getTime() + HOUR_MS)).catch(() => [])
        ).filter((s) => s.hostId === hostId),
      })),
    ),
    client.usageHour.findMany({
      where: { hostId, hourStart: { gte: starts[0] ?? end, lt: end }, gpuKey: { not: "host" } },
    }),
  ]);
  const now_ = new Map(current.filter((g) => g.hostId === hostId).map((g) => [g.uuid, g]));
  const indexOf = new Map(host.gpus.map((g) => [g.uuid, g.index]));
  return {
    zone: host.zone,
    instanceId: host.instanceId,
    state: host.state,
    interruptionPending: host.interruptionPending,
    interruptionAt: host.interruptionAt?.toISOString() ?? null,
    gpus: host.gpus.map((g) => ({
      uuid: g.uuid,
      index: g.index,
      virtualizationMode: g.virtualizationMode,
      vgpuLicensed: g.vgpuLicensed,
      util: now_.get(g.uuid)?.util ?? null,
      smActive: now_.get(g.uuid)?.smActive ?? null,
    })),
    inefficient: busyInefficient(windows, rows).map((f) => ({
      gpuUuid: f.gpuUuid,
      gpuIndex: indexOf.get(f.gpuUuid) ?? null,
      hours: f.hours.length,
      utilAvg: f.utilAvg,
      smActiveAvg: f.smActiveAvg,
      costMicros: f.costMicros.toString(),
      from: f.evidence.from,
      to: f.evidence.to,
    })),
  };
}
