import { ALERT_KIND_LABELS, type AlertKind } from "../zod/schemas/rule.ts";
import { idleNote } from "./idle-note.ts";

// What a notification says, independent of the channel's wire format: built from the alert row,
// its host and the transition being announced.

export interface MessageAlert {
  id: string;
  kind: string;
  severity: string;
  state: string;
  summary: string;
  details: string;
  fingerprint: string;
  startsAt: Date;
  endsAt: Date | null;
  hostId: string | null;
  gpuUuid: string | null;
  team: string | null;
  project: string | null;
  ruleName: string;
}

export interface MessageHost {
  hostname: string;
  owner: string | null;
  team: string;
  project: string;
  provider: string;
  instanceType: string;
}

export interface NotificationMessage {
  notificationId: string;
  transition: string;
  /** what the receiver should show: the transition, not the alert's state at send time */
  status: "firing" | "resolved";
  title: string;
  text: string;
  kind: string;
  kindLabel: string;
  severity: string;
  owner: string | null;
  hostname: string | null;
  alert: {
    id: string;
    fingerprint: string;
    rule: string;
    summary: string;
    details: Record<string, unknown>;
    startsAt: string;
    endsAt: string | null;
    hostId: string | null;
    gpuUuid: string | null;
    team: string | null;
    project: string | null;
  };
  /** app-relative link to the alert */
  path: string;
  test: boolean;
  /** what an idle alert adds: how long, what it cost, who holds it, what to do (idle-note.ts) */
  notes: string[];
  /** the Slack member a Slack message mentions: the person it was routed to, else the holder's */
  mentionSlackId: string | null;
}

function parseDetails(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function kindLabel(kind: string): string {
  return kind in ALERT_KIND_LABELS ? ALERT_KIND_LABELS[kind as AlertKind] : kind;
}

export function buildMessage(
  notificationId: string,
  transition: string,
  alert: MessageAlert,
  host: MessageHost | null,
  test = false,
  /** when it is sent: an idle alert says how long the GPU has been idle by then */
  now: Date = new Date(),
): NotificationMessage {
  const details = parseDetails(alert.details);
  const status = transition === "resolved" ? "resolved" : "firing";
  const owners = Array.isArray(details.owners)
    ? details.owners.filter((o): o is string => typeof o === "string")
    : [];
  const owner = host?.owner ?? (owners.length > 0 ? owners.join(", ") : null);
  const level = transition.startsWith("firing:") ? ` (${transition.slice(7)} %)` : "";
  const head = status === "resolved" ? "RESOLVED" : alert.severity.toUpperCase();
  const title = `[${head}] ${kindLabel(alert.kind)}${level}${host ? ` · ${host.hostname}` : ""}`;
  const idle =
    status === "firing" && alert.kind === "idle" ? idleNote(details, alert.startsAt, now) : null;
  const lines = [
    `${test ? "[TEST] " : ""}${title}`,
    alert.summary,
    ...(idle?.lines ?? []),
    [
      owner ? `owner: ${owner}` : null,
      (alert.team ?? host?.team) ? `team: ${alert.team ?? host?.team}` : null,
      (alert.project ?? host?.project) ? `project: ${alert.project ?? host?.project}` : null,
      `rule: ${alert.ruleName}`,
    ]
      .filter((x): x is string => x !== null)
      .join(" · "),
  ];
  return {
    notificationId,
    transition,
    status,
    title,
    text: lines.join("\n"),
    kind: alert.kind,
    kindLabel: kindLabel(alert.kind),
    severity: alert.severity,
    owner,
    hostname: host?.hostname ?? null,
    alert: {
      id: alert.id,
      fingerprint: alert.fingerprint,
      rule: alert.ruleName,
      summary: alert.summary,
      details,
      startsAt: alert.startsAt.toISOString(),
      endsAt: alert.endsAt ? alert.endsAt.toISOString() : null,
      hostId: alert.hostId,
      gpuUuid: alert.gpuUuid,
      team: alert.team ?? host?.team ?? null,
      project: alert.project ?? host?.project ?? null,
    },
    path: `/alerts?alert=${encodeURIComponent(alert.id)}`,
    test,
    notes: idle?.lines ?? [],
    mentionSlackId: typeof details.holderSlackId === "string" ? details.holderSlackId : null,
  };
}
