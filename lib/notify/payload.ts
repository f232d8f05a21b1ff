import type { ChannelKind } from "../zod/schemas/channel.ts";
import { alertsEndpoint, postableAlerts } from "./alertmanager-api.ts";
import type { NotificationMessage } from "./message.ts";

// Wire formats: a generic JSON document, a Slack-compatible incoming-webhook body, the
// Alertmanager webhook payload (version 4) that tools built for Alertmanager already accept, and
// Alertmanager's own v2 API (alertmanager-api.ts).

const ZERO_TIME = "0001-01-01T00:00:00Z";

export function webhookBody(m: NotificationMessage, sentAt: Date) {
  return {
    version: "1",
    source: "gpufleet",
    notificationId: m.notificationId,
    transition: m.transition,
    status: m.status,
    test: m.test,
    title: m.title,
    text: m.text,
    kind: m.kind,
    severity: m.severity,
    owner: m.owner,
    hostname: m.hostname,
    alert: m.alert,
    path: m.path,
    sentAt: sentAt.toISOString(),
  };
}

/** `<@U…> ` for an idle alert whose holder the people directory maps to a Slack member. */
function mention(m: NotificationMessage): string {
  const id = m.mentionSlackId;
  return typeof id === "string" && /^[UW][A-Z0-9]{2,20}$/.test(id) ? `<@${id}> ` : "";
}

/** Slack mrkdwn treats &, < and > as markup: text from alerts is escaped (Slack's own rule). */
function slackEscape(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

export function slackBody(m: NotificationMessage) {
  const icon =
    m.status === "resolved"
      ? ":white_check_mark:"
      : m.severity === "critical"
        ? ":red_circle:"
        : ":warning:";
  return {
    text: `${mention(m)}${m.test ? "[TEST] " : ""}${m.title}: ${m.alert.summary}`,
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `${icon} ${mention(m)}*${m.test ? "[TEST] " : ""}${m.title}*\n${m.alert.summary}${m.notes.length > 0 ? `\n${slackEscape(m.notes.join("\n"))}` : ""}`,
        },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: [
              m.owner ? `owner: *${m.owner}*` : null,
              m.alert.team ? `team: ${m.alert.team}` : null,
              m.alert.project ? `project: ${m.alert.project}` : null,
              `rule: ${m.alert.rule}`,
            ]
              .filter((x): x is string => x !== null)
              .join(" · "),
          },
        ],
      },
    ],
  };
}

function labelValues(m: NotificationMessage): Record<string, string> {
  const d = m.alert.details;
  const labels: Record<string, string> = {
    alertname: `gpufleet_${m.kind}`,
    severity: m.severity,
    rule: m.alert.rule,
  };
  if (m.hostname) labels.hostname = m.hostname;
  if (m.alert.gpuUuid) labels.uuid = m.alert.gpuUuid;
  if (typeof d.gpuIndex === "number") labels.gpu = String(d.gpuIndex);
  if (m.alert.team) labels.team = m.alert.team;
  if (m.alert.project) labels.project = m.alert.project;
  if (m.owner) labels.owner = m.owner;
  if (typeof d.budgetName === "string") labels.budget = d.budgetName;
  if (typeof d.idleKind === "string") labels.idle = d.idleKind;
  if (typeof d.holder === "string") labels.holder = d.holder;
  if (m.test) labels.test = "true";
  return labels;
}

export function alertmanagerBody(m: NotificationMessage) {
  const labels = labelValues(m);
  const annotations = { summary: m.alert.summary, description: m.text };
  const alert = {
    status: m.status,
    labels,
    annotations,
    startsAt: m.alert.startsAt,
    endsAt: m.status === "resolved" ? (m.alert.endsAt ?? ZERO_TIME) : ZERO_TIME,
    generatorURL: m.path,
    fingerprint: m.alert.fingerprint,
  };
  return {
    version: "4",
    groupKey: `{}:{alertname="${labels.alertname}",fingerprint="${m.alert.fingerprint}"}`,
    truncatedAlerts: 0,
    status: m.status,
    receiver: "gpufleet",
    groupLabels: { alertname: labels.alertname },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: "",
    alerts: [alert],
  };
}

export function buildPayload(
  kind: ChannelKind,
  m: NotificationMessage,
  sentAt: Date,
  opts: { publicUrl?: string } = {},
): unknown {
  switch (kind) {
    case "slack":
      return slackBody(m);
    case "alertmanager":
      return alertmanagerBody(m);
    case "alertmanager_api":
      return postableAlerts(m, { now: sentAt, publicUrl: opts.publicUrl });
    default:
      return webhookBody(m, sentAt);
  }
}

/** Where a channel's payload is POSTed: its URL, or the alerts endpoint under an Alertmanager. */
export function endpointFor(kind: ChannelKind, url: string): string {
  return kind === "alertmanager_api" ? alertsEndpoint(url) : url;
}

/**
 * How much of a refusal's body is kept in the delivery history: none, for every kind. Alertmanager
 * says there why it refused the alerts, but a channel may point at any service on the network,
 * and its error text (a private service's, quoted back to the channel list) is what the target
 * policy exists to keep from the app's users; the status code is kept.
 */
export function errorBodyBytes(_kind: ChannelKind): number {
  return 0;
}
