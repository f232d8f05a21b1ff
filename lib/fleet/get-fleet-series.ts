import "server-only";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import type { MetricsSource, SourceHealth } from "@/lib/metrics/source.ts";
import { toTimeRange, type Range } from "@/lib/zod/schemas/range.ts";
import type { FleetSeriesDto } from "@/lib/zod/schemas/series.ts";
import { SourceUnavailableError } from "./errors.ts";
import { toHealthDto } from "./health.ts";
import { staleAfterMs } from "./load-fleet-snapshot.ts";

/** Fleet utilization, memory and reporting GPUs over a range, downsampled by the source. */
export async function getFleetSeries(
  range: Range,
  { source = getMetricsSource(), now = new Date() }: { source?: MetricsSource; now?: Date } = {},
): Promise<FleetSeriesDto> {
  const tr = toTimeRange(range, now);
  const [series, health] = await Promise.all([
    source.fleetSeries(tr).catch((e: unknown) => {
      throw new SourceUnavailableError(e);
    }),
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
