import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  alertDetailSchema,
  alertListSchema,
  type AlertFilterState,
} from "@/lib/zod/schemas/alert.ts";
import type { RuleKind } from "@/lib/zod/schemas/rule.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

/** Alerts change on each collector tick (15 s by default). */
export const ALERTS_REFRESH_MS = 10_000;

export interface AlertFilters {
  state: AlertFilterState;
  kind?: RuleKind;
  team?: string;
  project?: string;
  hostId?: string;
}

export function alertListUrl(f: AlertFilters): string {
  const p = new URLSearchParams({ state: f.state });
  if (f.kind) p.set("kind", f.kind);
  if (f.team) p.set("team", f.team);
  if (f.project) p.set("project", f.project);
  if (f.hostId) p.set("hostId", f.hostId);
  return `/api/alerts?${p.toString()}`;
}

export const alertQueries = {
  all: () => ["alerts"] as const,
  list: (f: AlertFilters) =>
    queryOptions({
      queryKey: [...alertQueries.all(), "list", f] as const,
      queryFn: ({ signal }) => fetchJson(alertListUrl(f), alertListSchema, signal),
      refetchInterval: ALERTS_REFRESH_MS,
      placeholderData: keepPreviousData,
      retry: retryTransient,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...alertQueries.all(), "detail", id] as const,
      queryFn: ({ signal }) =>
        fetchJson(`/api/alerts/${encodeURIComponent(id)}`, alertDetailSchema, signal),
      refetchInterval: ALERTS_REFRESH_MS,
      retry: retryTransient,
    }),
};
