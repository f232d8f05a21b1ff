import { SEVERITIES } from "../zod/schemas/alert.ts";
import type { NotificationMessage } from "./message.ts";

// Alertmanager's v2 API as a destination: POST {base}/api/v2/alerts with an array of
// postableAlert (labels, annotations, startsAt, endsAt, generatorURL), as specified in
// prometheus/alertmanager api/v2/openapi.yaml (operationId postAlerts). Alertmanager identifies an
// alert by its label set, so labels hold only values that stay put while the alert is open.

export const ALERTS_PATH = "/api/v2/alerts";
/** Alerts per POST on re-sends; Prometheus's notifier batches 256 alerts per request too. */
export const MAX_ALERTS_PER_POST = 256;
/** A test message clears itself in Alertmanager after this long. */
export const TEST_ALERT_TTL_MS = 5 * 60_000;

export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  /** only when the alert is over; a firing alert without one stays until resolve_timeout */
  endsAt?: string;
  generatorURL?: string;
}

/**
 * The alerts endpoint under an Alertmanager base URL (route prefix kept). A URL that already ends
 * in /api/v2 or /api/v2/alerts is taken as meaning the same Alertmanager.
 */
export function alertsEndpoint(base: string): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return base;
  }
  const path = u.pathname.replace(/\/+$/, "").replace(/\/api\/v2(\/alerts)?$/, "");
  u.pathname = `${path}${ALERTS_PATH}`;
  return u.toString();
}

/** 4xx means Alertmanager refused the alerts as sent: retrying cannot help (but 408/429 can). */
export function isPermanentRefusal(httpStatus: number | null): boolean {
  return (
    httpStatus !== null && httpStatus >= 400 && httpStatus < 500 && ![408, 429].includes(httpStatus)
  );
}

/** The alert's identity in Alertmanager: stable across re-sends, so they deduplicate. */
export function alertLabels(m: NotificationMessage): Record<string, string> {
  const labels: Record<string, string> = {
    alertname: `gpufleet_${m.kind}`,
    severity: m.severity,
    source: "gpufleet",
    alert_id: m.alert.id,
    fingerprint: m.alert.fingerprint,
  };
  const gpu = m.alert.details.gpuIndex;
  if (m.hostname) labels.hostname = m.hostname;
  if (m.alert.gpuUuid) labels.uuid = m.alert.gpuUuid;
  if (typeof gpu === "number") labels.gpu = String(gpu);
  if (m.alert.team) labels.team = m.alert.team;
  if (m.alert.project) labels.project = m.alert.project;
  // who holds an idle GPU (issue 24), for Alertmanager routes that page that person: fixed while
  // the alert is open in practice (another holder means the GPU changed hands, i.e. worked)
  if (typeof m.alert.details.holder === "string") labels.holder = m.alert.details.holder;
  if (m.test) labels.test = "true";
  return labels;
}

/** What may change while the alert is open (owner, rule name, budget) goes here, not in labels. */
function annotations(m: NotificationMessage): Record<string, string> {
  const d = m.alert.details;
  const out: Record<string, string> = {
    summary: m.alert.summary,
    description: m.text,
    rule: m.alert.rule,
  };
  if (m.owner) out.owner = m.owner;
  if (typeof d.budgetName === "string") out.budget = d.budgetName;
  if (typeof d.idleKind === "string") out.idle = d.idleKind;
  if (m.transition.startsWith("firing:")) out.threshold = `${m.transition.slice(7)} %`;
  return out;
}

export function generatorUrl(publicUrl: string | undefined, path: string): string | undefined {
  if (!publicUrl) return undefined;
  return `${publicUrl.replace(/\/+$/, "")}${path}`;
}

export interface PostableOptions {
  /** the app's public URL, for generatorURL (omitted without one) */
  publicUrl?: string;
  /** send time: ends test alerts and the other-severity copies below */
  now: Date;
  /** a periodic re-send of an open alert: the alert alone */
  resend?: boolean;
}

/**
 * The postableAlerts for one message. Escalations and resolutions also end the alert under the
 * other severities: severity is a label, so a budget going from warning to critical would
 * otherwise leave the warning copy firing in Alertmanager until its resolve_timeout.
 */
export function postableAlerts(m: NotificationMessage, o: PostableOptions): PostableAlert[] {
  const labels = alertLabels(m);
  const generatorURL = generatorUrl(o.publicUrl, m.path);
  const base = {
    annotations: annotations(m),
    startsAt: m.alert.startsAt,
    ...(generatorURL ? { generatorURL } : {}),
  };
  const resolvedAt = m.alert.endsAt ?? o.now.toISOString();
  // a firing message retried after the alert resolved must not reopen it in Alertmanager
  const over = m.status === "resolved" || m.alert.endsAt !== null;
  const endsAt = over
    ? resolvedAt
    : m.test
      ? new Date(Date.parse(m.alert.startsAt) + TEST_ALERT_TTL_MS).toISOString()
      : undefined;
  const main: PostableAlert = { ...base, labels, ...(endsAt ? { endsAt } : {}) };
  const changed = m.status === "resolved" || m.transition.startsWith("firing:");
  if (o.resend || m.test || !changed) return [main];
  const othersEnd = m.status === "resolved" ? resolvedAt : o.now.toISOString();
  const others = SEVERITIES.filter((s) => s !== m.severity).map((severity) => ({
    ...base,
    labels: { ...labels, severity },
    endsAt: othersEnd,
  }));
  return [main, ...others];
}
