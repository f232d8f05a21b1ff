import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { costMonthSchema } from "@/lib/zod/schemas/costs.ts";
import { holderSpendSchema } from "@/lib/zod/schemas/holder-spend.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

/** The ledger gains a row per host per hour: refreshing every minute is plenty. */
export const COSTS_REFRESH_MS = 60_000;

export const costQueries = {
  all: () => ["costs"] as const,
  /** null: the current UTC month, as the server's clock decides. */
  month: (month: string | null) =>
    queryOptions({
      queryKey: [...costQueries.all(), "month", month ?? "current"] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          month === null ? "/api/costs" : `/api/costs?month=${encodeURIComponent(month)}`,
          costMonthSchema,
          signal,
        ),
      refetchInterval: COSTS_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
  exportUrl: (month: string) => `/api/costs/export.csv?month=${encodeURIComponent(month)}`,
  /** spend and idle spend by holder (issue 24) */
  holders: (month: string) =>
    queryOptions({
      queryKey: [...costQueries.all(), "holders", month] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          `/api/costs/holders?month=${encodeURIComponent(month)}`,
          holderSpendSchema,
          signal,
        ),
      refetchInterval: COSTS_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
  holdersCsvUrl: (month: string) => `/api/costs/holders.csv?month=${encodeURIComponent(month)}`,
};
