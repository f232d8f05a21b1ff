import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { compareResultSchema } from "@/lib/compare/schema.ts";
import { fetchJson, retryTransient } from "@/lib/queries/fetch-json.ts";

/** Prices and benchmarks change by hand and the ledger by the hour: a minute is plenty. */
export const COMPARE_REFRESH_MS = 60_000;

export const compareQueries = {
  all: () => ["compare"] as const,
  /** null: the current UTC month, as the server's clock decides. */
  month: (month: string | null) =>
    queryOptions({
      queryKey: [...compareQueries.all(), "month", month ?? "current"] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          month === null ? "/api/compare" : `/api/compare?month=${encodeURIComponent(month)}`,
          compareResultSchema,
          signal,
        ),
      refetchInterval: COMPARE_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
};
