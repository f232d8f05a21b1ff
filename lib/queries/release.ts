import { queryOptions } from "@tanstack/react-query";
import {
  releaseOptionsSchema,
  resizeOptionsSchema,
  type ResizeOptionsDto,
} from "@/lib/zod/schemas/release.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

// The active idle-release policies that can release an idle-host recommendation's host, or resize
// a right-size recommendation's host (with those that cover it but cannot resize).

export const releaseQueries = {
  options: (recommendationId: string, mode: "release" | "resize" = "release") =>
    queryOptions({
      queryKey: ["recommendations", mode, recommendationId] as const,
      queryFn: async ({ signal }): Promise<ResizeOptionsDto> => {
        const url = `/api/recommendations/${encodeURIComponent(recommendationId)}/${mode}`;
        if (mode === "resize") return fetchJson(url, resizeOptionsSchema, signal);
        return { ...(await fetchJson(url, releaseOptionsSchema, signal)), cannotResize: [] };
      },
      retry: retryTransient,
    }),
};
