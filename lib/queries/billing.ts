import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { reconciliationSchema } from "@/lib/zod/schemas/billing.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

export const billingQueries = {
  all: () => ["billing"] as const,
  /** null: last month, as the server's clock decides */
  reconcile: (month: string | null) =>
    queryOptions({
      queryKey: [...billingQueries.all(), "reconcile", month ?? "last"] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          month === null
            ? "/api/billing/reconcile"
            : `/api/billing/reconcile?month=${encodeURIComponent(month)}`,
          reconciliationSchema,
          signal,
        ),
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
};
