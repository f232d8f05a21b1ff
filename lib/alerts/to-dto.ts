import type { AlertDto, AlertState, Severity } from "../zod/schemas/alert.ts";
import type { AlertKind } from "../zod/schemas/rule.ts";

// Store rows → API shapes (ISO times, parsed JSON).

export interface AlertRowWithRule {
  id: string;
  ruleId: string;
  rule: { name: string };
  kind: string;
  severity: string;
  state: string;
  snoozedUntil: Date | null;
  summary: string;
  details: string;
  hostId: string | null;
  gpuUuid: string | null;
  team: string | null;
  project: string | null;
  startsAt: Date;
  endsAt: Date | null;
  acknowledgedBy: string | null;
  acknowledgedAt: Date | null;
  resolvedBy: string | null;
  /** set while resolving (lib/alerts/reconcile.ts); kept on resolved rows, not shown for them */
  clearSince: Date | null;
  updatedAt: Date;
}

export function parseJsonObject(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function alertDto(
  a: AlertRowWithRule,
  host: { hostname: string; owner: string | null } | undefined,
  now: Date,
): AlertDto {
  const details = parseJsonObject(a.details);
  const owners = Array.isArray(details.owners)
    ? details.owners.filter((o): o is string => typeof o === "string").join(", ")
    : "";
  return {
    id: a.id,
    ruleId: a.ruleId,
    ruleName: a.rule.name,
    kind: a.kind as AlertKind,
    severity: (["info", "warning", "critical"].includes(a.severity)
      ? a.severity
      : "warning") as Severity,
    state: (["firing", "acknowledged", "resolved"].includes(a.state)
      ? a.state
      : "firing") as AlertState,
    snoozedUntil: iso(a.snoozedUntil),
    snoozed: a.snoozedUntil !== null && a.snoozedUntil.getTime() > now.getTime(),
    summary: a.summary,
    details,
    hostId: a.hostId,
    hostname: host?.hostname ?? (typeof details.hostname === "string" ? details.hostname : null),
    gpuUuid: a.gpuUuid,
    team: a.team,
    project: a.project,
    owner: host?.owner ?? (owners === "" ? null : owners),
    startsAt: a.startsAt.toISOString(),
    endsAt: iso(a.endsAt),
    acknowledgedBy: a.acknowledgedBy,
    acknowledgedAt: iso(a.acknowledgedAt),
    resolvedBy: a.resolvedBy,
    clearSince: a.state === "resolved" ? null : iso(a.clearSince),
    updatedAt: a.updatedAt.toISOString(),
  };
}
