import { queryOptions } from "@tanstack/react-query";
import { budgetListSchema } from "@/lib/zod/schemas/budget.ts";
import { channelListSchema } from "@/lib/zod/schemas/channel.ts";
import { ruleListSchema } from "@/lib/zod/schemas/rule.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

export const settingsQueries = {
  all: () => ["settings"] as const,
  rules: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), "rules"] as const,
      queryFn: ({ signal }) => fetchJson("/api/rules", ruleListSchema, signal),
      refetchInterval: 30_000,
      retry: retryTransient,
    }),
  budgets: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), "budgets"] as const,
      queryFn: ({ signal }) => fetchJson("/api/budgets", budgetListSchema, signal),
      refetchInterval: 60_000,
      retry: retryTransient,
    }),
  channels: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), "channels"] as const,
      queryFn: ({ signal }) => fetchJson("/api/channels", channelListSchema, signal),
      refetchInterval: 15_000,
      retry: retryTransient,
    }),
};
