import "server-only";
import type { Db } from "../db.ts";
import { CHANNEL_KINDS, type ChannelKind } from "../zod/schemas/channel.ts";
import { isPermanentRefusal } from "./alertmanager-api.ts";
import { buildMessage, type MessageHost } from "./message.ts";
import { buildPayload, endpointFor, errorBodyBytes } from "./payload.ts";
import { appPublicUrl } from "./public-url.ts";
import { postJson, type Sender, type SendResult } from "./send.ts";
import { sendEmail, type EmailSender } from "./send-email.ts";
import { planEmail, recipientSlack, sendPlanned, smtpCheckUrl } from "./deliver-email.ts";
import {
  adminAllowsPrivate,
  once,
  refusedMessage,
  vetTarget,
  type AllowPrivate,
} from "./target-policy.ts";
import { isHttpUrl, redactText } from "./url.ts";

// At-least-once delivery. A sender first CLAIMS a due row with one conditional UPDATE (status,
// attempt count and due time must still be what it read), so two processes never send the same
// row at once; the claim expires (nextAttemptAt) if the sender dies, and another takes it over.
// Failures retry with exponential backoff; every attempt is recorded, its start before the send. A target the webhook target
// check refuses (lib/net/webhook-target.ts) fails at once: retrying cannot make it allowed, and
// so does a 4xx from an Alertmanager (it refused the alerts as sent). An email channel sends through
// its SMTP server (send-email.ts) to the row's recipient (one person, audience.ts) or to the
// channel's team addresses, through the same claim, retries and attempt log.

export interface DeliveryOptions {
  batch: number;
  concurrency: number;
  timeoutMs: number;
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** how long a claim holds before another sender may take the row over */
  claimTtlMs: number;
  send: Sender;
  /** email channels' sender (SMTP through nodemailer) */
  sendEmail: EmailSender;
  clock: () => Date;
  /** the admin's "allow private webhook targets"; read once per run, only if a target is refused */
  allowPrivate: AllowPrivate;
  /** the app's public URL, for links back to the alert (Alertmanager's generatorURL) */
  publicUrl: string | undefined;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  batch: 20,
  concurrency: 4,
  timeoutMs: 5_000,
  maxAttempts: 8,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  claimTtlMs: 60_000,
  send: postJson,
  sendEmail,
  clock: () => new Date(),
  allowPrivate: adminAllowsPrivate,
  publicUrl: appPublicUrl(),
};

export interface DeliveryReport {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
}

/** Delay before attempt n+1 after n failures: base × 2^(n−1), capped. */
export function backoffMs(
  failures: number,
  o: Pick<DeliveryOptions, "baseDelayMs" | "maxDelayMs">,
) {
  return Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, failures - 1));
}

export function channelKind(k: string): ChannelKind {
  return (CHANNEL_KINDS as readonly string[]).includes(k) ? (k as ChannelKind) : "webhook";
}

type Due = Awaited<ReturnType<typeof loadDue>>[number];

function loadDue(db: Db, now: Date, take: number) {
  return db.notification.findMany({
    where: { status: { in: ["pending", "sending"] }, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take,
    include: { channel: true, alert: { include: { rule: { select: { name: true } } } } },
  });
}

async function deliverOne(
  db: Db,
  n: Due,
  hosts: Map<string, MessageHost>,
  o: DeliveryOptions,
  report: DeliveryReport,
): Promise<void> {
  const claimedAt = o.clock();
  const claim = await db.notification.updateMany({
    where: { id: n.id, status: n.status, attempts: n.attempts, nextAttemptAt: { lte: claimedAt } },
    data: { status: "sending", nextAttemptAt: new Date(claimedAt.getTime() + o.claimTtlMs) },
  });
  if (claim.count !== 1) return;
  report.claimed++;
  const mine = { id: n.id, status: "sending", attempts: n.attempts };
  if (!n.channel.enabled) {
    await db.notification.updateMany({
      where: mine,
      data: { status: "suppressed", lastError: "channel disabled before delivery" },
    });
    return;
  }
  const kind = channelKind(n.channel.kind);
  const email = kind === "email" ? planEmail(n.channel.config, n.recipient) : null;
  if (email && !email.ok) {
    await db.notification.updateMany({
      where: mine,
      data: { status: email.status, lastError: email.error },
    });
    if (email.status === "failed") report.failed++;
    return;
  }
  if (!email && !isHttpUrl(n.channel.url)) {
    // Stored before validation existed, or edited in the database: never fetch file: and friends.
    await db.notification.updateMany({
      where: mine,
      data: { status: "failed", lastError: "the channel URL is not http(s)" },
    });
    report.failed++;
    return;
  }
  const target = await vetTarget(
    email ? smtpCheckUrl(email.config) : n.channel.url,
    o.allowPrivate,
  );
  if (!target.ok) {
    // Recorded like any attempt (the channel shows as failing, with the reason), never sent.
    const error = redactText(refusedMessage(target.reason), n.channel.url);
    const at = o.clock();
    await db.notificationAttempt.create({
      data: { notificationId: n.id, at, finishedAt: at, httpStatus: null, error, durationMs: 0 },
    });
    await db.notification.updateMany({
      where: mine,
      data: { status: "failed", attempts: n.attempts + 1, lastError: error },
    });
    report.failed++;
    return;
  }
  const host = n.alert.hostId ? (hosts.get(n.alert.hostId) ?? null) : null;
  const built = buildMessage(
    n.id,
    n.transition,
    { ...n.alert, ruleName: n.alert.rule.name },
    host,
    false,
    claimedAt,
  );
  // a message routed to one person on Slack mentions that person
  const slackId = recipientSlack(n.recipient);
  const message = slackId ? { ...built, mentionSlackId: slackId } : built;
  // Written before the request goes out: a process killed mid-send leaves "started, no outcome".
  const attempt = await db.notificationAttempt.create({
    data: { notificationId: n.id, at: o.clock(), finishedAt: null, durationMs: 0 },
    select: { id: true },
  });
  const result: SendResult = email
    ? await sendPlanned(email, message, o.sendEmail, {
        timeoutMs: o.timeoutMs,
        allowPrivate: target.allowPrivate,
        publicUrl: o.publicUrl,
      })
    : await o.send(
        endpointFor(kind, n.channel.url),
        buildPayload(kind, message, claimedAt, { publicUrl: o.publicUrl }),
        {
          timeoutMs: o.timeoutMs,
          idempotencyKey: n.id,
          allowPrivate: target.allowPrivate,
          keepErrorBody: errorBodyBytes(kind),
        },
      );
  const error = result.error === null ? null : redactText(result.error, n.channel.url);
  const at = o.clock();
  await db.notificationAttempt.update({
    where: { id: attempt.id },
    data: { finishedAt: at, httpStatus: result.httpStatus, error, durationMs: result.durationMs },
  });
  const attempts = n.attempts + 1;
  if (result.ok) {
    await db.notification.updateMany({
      where: mine,
      data: { status: "delivered", attempts, deliveredAt: at, lastError: null },
    });
    report.delivered++;
    return;
  }
  const refused = kind === "alertmanager_api" && isPermanentRefusal(result.httpStatus);
  const giveUp = refused || attempts >= o.maxAttempts;
  await db.notification.updateMany({
    where: mine,
    data: {
      status: giveUp ? "failed" : "pending",
      attempts,
      lastError: error,
      nextAttemptAt: new Date(at.getTime() + (giveUp ? 0 : backoffMs(attempts, o))),
    },
  });
  if (giveUp) report.failed++;
  else report.retrying++;
}

/** The hosts of these alerts, for the messages. */
export async function hostsOf(
  db: Db,
  rows: readonly { alert: { hostId: string | null } }[],
): Promise<Map<string, MessageHost>> {
  const hostIds = [...new Set(rows.flatMap((n) => (n.alert.hostId ? [n.alert.hostId] : [])))];
  if (hostIds.length === 0) return new Map();
  const found = await db.host.findMany({
    where: { id: { in: hostIds } },
    select: {
      id: true,
      hostname: true,
      owner: true,
      team: true,
      project: true,
      provider: true,
      instanceType: true,
    },
  });
  return new Map(found.map((h) => [h.id, h]));
}

/** Sends up to `batch` due notifications, `concurrency` at a time. */
export async function deliverDue(
  db: Db,
  options: Partial<DeliveryOptions> = {},
): Promise<DeliveryReport> {
  const given: DeliveryOptions = { ...DEFAULT_DELIVERY, ...options };
  const o: DeliveryOptions = { ...given, allowPrivate: once(given.allowPrivate) };
  const report: DeliveryReport = { claimed: 0, delivered: 0, retrying: 0, failed: 0 };
  const due = await loadDue(db, o.clock(), o.batch);
  if (due.length === 0) return report;
  const hosts = await hostsOf(db, due);
  const queue = [...due];
  const worker = async () => {
    for (let n = queue.shift(); n; n = queue.shift()) await deliverOne(db, n, hosts, o, report);
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  return report;
}
