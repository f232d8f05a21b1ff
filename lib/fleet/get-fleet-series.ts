import "server-only";
import { hostIdsInScope, type TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import type {
  FleetSeries,
  GpuSeries,
  MetricsSource,
  SourceHealth,
  TimeRange,
} from "@/lib/metrics/source.ts";
import { toTimeRange, type Range } from "@/lib/zod/schemas/range.ts";
import type { FleetSeriesDto } from "@/lib/zod/schemas/series.ts";
import { combineGpuSeries } from "./combine-gpu-series.ts";
import { SourceUnavailableError } from "../core/errors.ts";
import { toHealthDto } from "./health.ts";
import { staleAfterMs } from "./load-fleet-snapshot.ts";

/** Hosts whose GPU series are read at once for a team-limited fleet series. */
const HOSTS_AT_ONCE = 8;

// The sources aggregate only the whole fleet, so a team-limited series is combined from its
// hosts' per-GPU series: one source read per host, a few at a time.
async function scopedSeries(
  source: MetricsSource,
  hostIds: readonly string[],
  tr: TimeRange,
): Promise<FleetSeries> {
  const gpus: GpuSeries[] = [];
  for (let i = 0; i < hostIds.length; i += HOSTS_AT_ONCE) {
    const batch = hostIds.slice(i, i + HOSTS_AT_ONCE);
    for (const list of await Promise.all(batch.map((id) => source.gpuSeries(id, tr)))) {
      gpus.push(...list);
    }
  }
  return combineGpuSeries(gpus);
}

/**
 * Fleet utilization, memory and reporting GPUs over a range, downsampled by the source; for a
 * team-limited scope, over its teams' hosts only.
 */
export async function getFleetSeries(
  range: Range,
  {
    source = getMetricsSource(),
    client = defaultDb,
    now = new Date(),
    scope,
  }: { source?: MetricsSource; client?: Db; now?: Date; scope: TeamScope },
): Promise<FleetSeriesDto> {
  const tr = toTimeRange(range, now);
  const hostIds = await hostIdsInScope(client, scope);
  const [series, health] = await Promise.all([
    (hostIds === null ? source.fleetSeries(tr) : scopedSeries(source, hostIds, tr)).catch(
      (e: unknown) => {
        throw new SourceUnavailableError(e);
      },
    ),
    source
      .health()
      .catch((e: unknown): SourceHealth => ({ ok: false, lastSuccess: null, error: String(e) })),
  ]);
  return {
    range,
    from: tr.from.toISOString(),
    to: tr.to.toISOString(),
    generatedAt: now.toISOString(),
    health: toHealthDto(health, source.mode, now.getTime(), staleAfterMs()),
    ...series,
  };
}
