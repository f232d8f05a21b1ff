import "server-only";
import type { Db } from "../db.ts";
import { ALERTMANAGER_RESEND_INTERVAL_S } from "../zod/schemas/channel.ts";
import { alertsEndpoint, MAX_ALERTS_PER_POST, postableAlerts } from "./alertmanager-api.ts";
import { FAILING_AFTER } from "./channel-health.ts";
import { DEFAULT_DELIVERY, hostsOf, type DeliveryOptions } from "./deliver.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { buildMessage } from "./message.ts";
import { errorBodyBytes } from "./payload.ts";
import { once, refusedMessage, vetTarget } from "./target-policy.ts";
import { isHttpUrl, redactText } from "./url.ts";

// Alertmanager resolves an alert that nobody re-sent within its resolve_timeout (5 min by
// default), and it is a state sync, not a feed of transitions (see alertmanager-backfill.ts, which
// queues every open alert in a channel's scope that the channel was not told of). So once per
// RESEND_INTERVAL_MS the notify job re-sends to each alertmanager_api channel every open alert it
// has a firing notification for that is not in flight (delivered, given up, or suppressed while
// the channel was disabled), and every alert resolved in the last RESOLVED_RESEND_MS that has no
// delivered "resolved" here, as Prometheus keeps sending resolved alerts for 15 minutes. No
// Notification rows: one JobState row per channel holds the last re-send time and is claimed with
// a conditional update, so one process sends.

export const RESEND_INTERVAL_MS = ALERTMANAGER_RESEND_INTERVAL_S * 1000;
export const RESEND_SLOT_PREFIX = "notify.alertmanager-resend:";
/** How long a resolved alert keeps being sent (Prometheus's resolved retention is 15 minutes). */
export const RESOLVED_RESEND_MS = 15 * 60_000;

export type ResendOptions = Pick<
  DeliveryOptions,
  "timeoutMs" | "send" | "clock" | "allowPrivate" | "publicUrl"
> & { intervalMs: number };

export const DEFAULT_RESEND: ResendOptions = {
  timeoutMs: DEFAULT_DELIVERY.timeoutMs,
  send: DEFAULT_DELIVERY.send,
  clock: DEFAULT_DELIVERY.clock,
  allowPrivate: DEFAULT_DELIVERY.allowPrivate,
  publicUrl: DEFAULT_DELIVERY.publicUrl,
  intervalMs: RESEND_INTERVAL_MS,
};

export interface ResendReport {
  /** channels whose re-send was due and claimed by this run */
  channels: number;
  /** alerts re-sent (accepted by Alertmanager) */
  alerts: number;
  /** channels whose re-send failed (refused target, HTTP error, no answer) */
  failed: number;
}

/**
 * Takes the channel's re-send slot when the last re-send is at least `intervalMs` old. Returns
 * null when not taken, else the time of the previous re-send (null on the first).
 */
export async function claimResendSlot(
  db: Db,
  channelId: string,
  now: Date,
  intervalMs: number,
): Promise<{ previous: Date | null } | null> {
  const name = `${RESEND_SLOT_PREFIX}${channelId}`;
  const value = now.toISOString();
  const row = await db.jobState.findUnique({ where: { name } });
  if (!row) {
    try {
      await db.jobState.create({ data: { name, value } });
      return { previous: null };
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }
  const previous = Date.parse(row.value);
  // a slot "in the future" (the clock was set back) is taken over rather than waited out
  const age = now.getTime() - previous;
  if (age >= 0 && age < intervalMs) return null;
  const taken = await db.jobState.updateMany({
    where: { name, value: row.value },
    data: { value },
  });
  if (taken.count !== 1) return null;
  return { previous: Number.isFinite(previous) && age >= 0 ? new Date(previous) : null };
}

/**
 * What this channel should hold: each alert it has a settled firing notification for that is
 * still open, or that resolved since `resolvedSince` without a "resolved" delivered here (the
 * channel was down or disabled, or the alert was snoozed): Alertmanager then hears of the end
 * now, not after its resolve_timeout.
 */
async function alertsToResend(db: Db, channelId: string, resolvedSince: Date) {
  const ended = [
    {
      state: "resolved",
      endsAt: { gte: resolvedSince },
      notifications: { none: { channelId, transition: "resolved", status: "delivered" } },
    },
  ];
  const rows = await db.notification.findMany({
    where: {
      channelId,
      status: { notIn: ["pending", "sending"] },
      transition: { startsWith: "firing" },
      alert: { OR: [{ state: { in: ["firing", "acknowledged"] } }, ...ended] },
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: { alert: { include: { rule: { select: { name: true } } } } },
  });
  const latest = new Map<string, (typeof rows)[number]>();
  for (const n of rows) if (!latest.has(n.alertId)) latest.set(n.alertId, n);
  return [...latest.values()];
}

/**
 * Re-send outcomes go in the channel's attempt log only when they change its health: failures
 * until the channel shows as failing, then one success when it recovers. An Alertmanager that is
 * down for a day thus adds FAILING_AFTER rows, not one per minute.
 */
async function record(
  db: Db,
  channelId: string,
  notificationId: string,
  at: Date,
  outcome: { httpStatus: number | null; error: string | null; durationMs: number },
): Promise<void> {
  const recent = await db.notificationAttempt.findMany({
    where: { notification: { channelId }, finishedAt: { not: null } },
    orderBy: { at: "desc" },
    take: FAILING_AFTER,
    select: { error: true },
  });
  let streak = 0;
  for (const a of recent) {
    if (a.error === null) break;
    streak++;
  }
  if (outcome.error === null ? streak === 0 : streak >= FAILING_AFTER) return;
  await db.notificationAttempt.create({
    data: {
      notificationId,
      at,
      finishedAt: at,
      httpStatus: outcome.httpStatus,
      error: outcome.error === null ? null : `re-send: ${outcome.error}`,
      durationMs: outcome.durationMs,
    },
  });
}

type Channel = { id: string; url: string };

async function resendChannel(
  db: Db,
  c: Channel,
  o: ResendOptions,
  report: ResendReport,
): Promise<void> {
  const since = new Date(o.clock().getTime() - RESOLVED_RESEND_MS);
  const open = await alertsToResend(db, c.id, since);
  const first = open[0];
  if (!first) return;
  const fail = async (httpStatus: number | null, error: string, durationMs = 0) => {
    report.failed++;
    const at = o.clock();
    await record(db, c.id, first.id, at, { httpStatus, error, durationMs });
  };
  if (!isHttpUrl(c.url)) return fail(null, "the channel URL is not http(s)");
  const target = await vetTarget(c.url, o.allowPrivate);
  if (!target.ok) return fail(null, redactText(refusedMessage(target.reason), c.url));
  const hosts = await hostsOf(db, open);
  const now = o.clock();
  const alerts = open.flatMap((n) => {
    const host = n.alert.hostId ? (hosts.get(n.alert.hostId) ?? null) : null;
    const m = buildMessage(n.id, n.transition, { ...n.alert, ruleName: n.alert.rule.name }, host);
    return postableAlerts(m, { now, publicUrl: o.publicUrl, resend: true });
  });
  const endpoint = alertsEndpoint(c.url);
  let sent = 0;
  let durationMs = 0;
  for (let i = 0; i < alerts.length; i += MAX_ALERTS_PER_POST) {
    const chunk = alerts.slice(i, i + MAX_ALERTS_PER_POST);
    const r = await o.send(endpoint, chunk, {
      timeoutMs: o.timeoutMs,
      allowPrivate: target.allowPrivate,
      keepErrorBody: errorBodyBytes("alertmanager_api"),
    });
    durationMs += r.durationMs;
    // the rest would meet the same Alertmanager: try again at the next interval
    if (!r.ok) return fail(r.httpStatus, redactText(r.error ?? "failed", c.url), r.durationMs);
    sent += chunk.length;
  }
  report.alerts += sent;
  await record(db, c.id, first.id, o.clock(), { httpStatus: 200, error: null, durationMs });
}

/** Re-sends the open alerts of every enabled alertmanager_api channel whose interval is up. */
export async function resendOpenAlerts(
  db: Db,
  options: Partial<ResendOptions> = {},
): Promise<ResendReport> {
  const given: ResendOptions = { ...DEFAULT_RESEND, ...options };
  const o: ResendOptions = { ...given, allowPrivate: once(given.allowPrivate) };
  const report: ResendReport = { channels: 0, alerts: 0, failed: 0 };
  const channels = await db.channel.findMany({
    where: { kind: "alertmanager_api", enabled: true },
    orderBy: { createdAt: "asc" },
    select: { id: true, url: true },
  });
  // slots of channels deleted, disabled or changed to another kind
  await db.jobState.deleteMany({
    where: {
      name: { startsWith: RESEND_SLOT_PREFIX },
      NOT: { name: { in: channels.map((c) => `${RESEND_SLOT_PREFIX}${c.id}`) } },
    },
  });
  for (const c of channels) {
    const slot = await claimResendSlot(db, c.id, o.clock(), o.intervalMs);
    if (!slot) continue;
    report.channels++;
    await resendChannel(db, c, o, report);
  }
  return report;
}
