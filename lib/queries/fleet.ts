import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { fleetGpuPageSchema, fleetSummarySchema, type GroupBy } from "@/lib/zod/schemas/fleet.ts";
import type { Range } from "@/lib/zod/schemas/range.ts";
import { fleetSeriesSchema } from "@/lib/zod/schemas/series.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

/** Live data polls at the collector's default scrape interval. */
export const LIVE_REFRESH_MS = 15_000;

export const fleetQueries = {
  all: () => ["fleet"] as const,
  summary: () =>
    queryOptions({
      queryKey: [...fleetQueries.all(), "summary"] as const,
      queryFn: ({ signal }) => fetchJson("/api/fleet", fleetSummarySchema, signal),
      refetchInterval: LIVE_REFRESH_MS,
      retry: retryTransient,
    }),
  /** one page of a group's GPUs, or of the problem list (by "attention") */
  gpus: (by: GroupBy | "attention", key: string, page: number, pageSize: number) =>
    queryOptions({
      queryKey: [...fleetQueries.all(), "gpus", by, key, page, pageSize] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          `/api/fleet/gpus?${new URLSearchParams({ by, key, page: String(page), pageSize: String(pageSize) }).toString()}`,
          fleetGpuPageSchema,
          signal,
        ),
      refetchInterval: LIVE_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
  series: (range: Range) =>
    queryOptions({
      queryKey: [...fleetQueries.all(), "series", range] as const,
      queryFn: ({ signal }) =>
        fetchJson(`/api/fleet/series?range=${range}`, fleetSeriesSchema, signal),
      refetchInterval: LIVE_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
};
