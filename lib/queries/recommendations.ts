import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  recommendationListSchema,
  type RecommendationKind,
  type RecommendationState,
} from "@/lib/zod/schemas/recommendation.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

export type RecommendationFilter = RecommendationState | "all";

export const recommendationQueries = {
  all: () => ["recommendations"] as const,
  list: (state: RecommendationFilter, kind?: RecommendationKind) =>
    queryOptions({
      queryKey: [...recommendationQueries.all(), "list", state, kind ?? "any"] as const,
      queryFn: ({ signal }) => {
        const p = new URLSearchParams({ state });
        if (kind) p.set("kind", kind);
        return fetchJson(`/api/recommendations?${p.toString()}`, recommendationListSchema, signal);
      },
      refetchInterval: 60_000,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
};
