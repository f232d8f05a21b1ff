import "server-only";
import { inTeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb } from "@/lib/db.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import type { SourceHealth } from "@/lib/metrics/source.ts";
import { toTimeRange, type Range } from "@/lib/zod/schemas/range.ts";
import type { InstanceSeriesDto } from "@/lib/zod/schemas/series.ts";
import { NotFoundError, SourceUnavailableError } from "../core/errors.ts";
import { toHealthDto } from "./health.ts";
import { staleAfterMs, type FleetDeps } from "./load-fleet-snapshot.ts";

/** Per-GPU utilization, memory, power, temperature and SM clock of one instance over a range. */
export async function getInstanceSeries(
  id: string,
  range: Range,
  deps: FleetDeps,
): Promise<InstanceSeriesDto> {
  const client = deps.client ?? defaultDb;
  const source = deps.source ?? getMetricsSource();
  const now = deps.now ?? new Date();
  const host = await client.host.findUnique({ where: { id }, select: { team: true } });
  if (!host || !inTeamScope(deps.scope, host.team)) {
    throw new NotFoundError(`instance ${id}`);
  }
  // Eight GPUs × five metrics per response: fewer points per series than the fleet chart.
  const tr = toTimeRange(range, now, 400);
  const [gpus, health] = await Promise.all([
    source.gpuSeries(id, tr).catch((e: unknown) => {
      throw new SourceUnavailableError(e);
    }),
    source
      .health()
      .catch((e: unknown): SourceHealth => ({ ok: false, lastSuccess: null, error: String(e) })),
  ]);
  return {
    hostId: id,
    range,
    from: tr.from.toISOString(),
    to: tr.to.toISOString(),
    generatedAt: now.toISOString(),
    health: toHealthDto(health, source.mode, now.getTime(), staleAfterMs()),
    gpus: [...gpus].sort((a, b) => a.index - b.index),
  };
}
