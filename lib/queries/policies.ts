import { queryOptions } from "@tanstack/react-query";
import {
  plannedActionListSchema,
  policyListSchema,
  savingsSchema,
  scaleSignalListSchema,
} from "@/lib/zod/schemas/policy.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

// The idle-release policies and what they would do (settings page, issue 25).

export const policyQueries = {
  all: () => ["policies"] as const,
  list: () =>
    queryOptions({
      queryKey: [...policyQueries.all(), "list"] as const,
      queryFn: ({ signal }) => fetchJson("/api/policies", policyListSchema, signal),
      refetchInterval: 30_000,
      retry: retryTransient,
    }),
  actions: () =>
    queryOptions({
      queryKey: [...policyQueries.all(), "actions"] as const,
      queryFn: ({ signal }) => fetchJson("/api/policies/actions", plannedActionListSchema, signal),
      refetchInterval: 30_000,
      retry: retryTransient,
    }),
  scaleSignals: () =>
    queryOptions({
      queryKey: [...policyQueries.all(), "scale-signals"] as const,
      queryFn: ({ signal }) =>
        fetchJson("/api/policies/scale-signals", scaleSignalListSchema, signal),
      refetchInterval: 30_000,
      retry: retryTransient,
    }),
};

export const policySavingsQuery = (month?: string) =>
  queryOptions({
    queryKey: [...policyQueries.all(), "savings", month ?? "current"] as const,
    queryFn: ({ signal }) =>
      fetchJson(
        `/api/policies/savings${month ? `?month=${encodeURIComponent(month)}` : ""}`,
        savingsSchema,
        signal,
      ),
    refetchInterval: 60_000,
    retry: retryTransient,
  });
