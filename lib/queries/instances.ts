import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { instanceDetailSchema, instanceListSchema } from "@/lib/zod/schemas/instance.ts";
import type { Range } from "@/lib/zod/schemas/range.ts";
import { instanceSeriesSchema } from "@/lib/zod/schemas/series.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";
import { LIVE_REFRESH_MS } from "./fleet.ts";

export const instanceQueries = {
  all: () => ["instances"] as const,
  /** Every instance; the table filters and sorts in the browser so polling ignores the view. */
  list: () =>
    queryOptions({
      queryKey: [...instanceQueries.all(), "list"] as const,
      queryFn: ({ signal }) => fetchJson("/api/instances", instanceListSchema, signal),
      refetchInterval: LIVE_REFRESH_MS,
      retry: retryTransient,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...instanceQueries.all(), "detail", id] as const,
      queryFn: ({ signal }) =>
        fetchJson(`/api/instances/${encodeURIComponent(id)}`, instanceDetailSchema, signal),
      refetchInterval: LIVE_REFRESH_MS,
      retry: retryTransient,
    }),
  series: (id: string, range: Range) =>
    queryOptions({
      queryKey: [...instanceQueries.all(), "series", id, range] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          `/api/instances/${encodeURIComponent(id)}/series?range=${range}`,
          instanceSeriesSchema,
          signal,
        ),
      refetchInterval: LIVE_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
};
