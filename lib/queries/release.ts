import { queryOptions } from "@tanstack/react-query";
import { releaseOptionsSchema } from "@/lib/zod/schemas/release.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

// The active idle-release policies that can release an idle-host recommendation's host.

export const releaseQueries = {
  options: (recommendationId: string) =>
    queryOptions({
      queryKey: ["recommendations", "release", recommendationId] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          `/api/recommendations/${encodeURIComponent(recommendationId)}/release`,
          releaseOptionsSchema,
          signal,
        ),
      retry: retryTransient,
    }),
};
