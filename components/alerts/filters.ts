import type { AlertFilters } from "@/lib/queries/alerts.ts";
import { ALERT_FILTER_STATES, type AlertFilterState } from "@/lib/zod/schemas/alert.ts";
import { RULE_KINDS, type RuleKind } from "@/lib/zod/schemas/rule.ts";

// The alerts page's filters live in the URL (shareable); unknown values fall back to defaults
// instead of failing the page.

export function filtersFromParams(p: URLSearchParams): AlertFilters {
  const state = p.get("state") ?? "open";
  const kind = p.get("kind") ?? "";
  const text = (k: string) => {
    const v = (p.get(k) ?? "").trim();
    return v === "" ? undefined : v.slice(0, 200);
  };
  return {
    state: (ALERT_FILTER_STATES as readonly string[]).includes(state)
      ? (state as AlertFilterState)
      : "open",
    ...((RULE_KINDS as readonly string[]).includes(kind) ? { kind: kind as RuleKind } : {}),
    ...(text("team") ? { team: text("team") } : {}),
    ...(text("project") ? { project: text("project") } : {}),
    ...(text("hostId") ? { hostId: text("hostId") } : {}),
  };
}

export function paramsFromFilters(f: AlertFilters, base: URLSearchParams): URLSearchParams {
  const p = new URLSearchParams(base);
  for (const k of ["state", "kind", "team", "project", "hostId"]) p.delete(k);
  if (f.state !== "open") p.set("state", f.state);
  if (f.kind) p.set("kind", f.kind);
  if (f.team) p.set("team", f.team);
  if (f.project) p.set("project", f.project);
  if (f.hostId) p.set("hostId", f.hostId);
  return p;
}
