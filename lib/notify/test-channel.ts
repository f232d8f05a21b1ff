import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../core/errors.ts";
import type { ChannelTestResult } from "../zod/schemas/channel.ts";
import { channelKind, DEFAULT_DELIVERY } from "./deliver.ts";
import { buildMessage } from "./message.ts";
import { buildPayload, endpointFor } from "./payload.ts";
import { postJson, type Sender } from "./send.ts";
import {
  adminAllowsPrivate,
  refusedMessage,
  vetTarget,
  type AllowPrivate,
} from "./target-policy.ts";
import { isHttpUrl, redactText } from "./url.ts";
import { sendEmail as smtpSend, type EmailSender } from "./send-email.ts";
import { parseEmailConfig } from "../zod/schemas/email-channel.ts";
import { sendPlanned, smtpCheckUrl } from "./deliver-email.ts";

// The settings page's test button: one real POST of a clearly marked test message, synchronous,
// with the same timeout as deliveries, to a target the webhook target check allows. Nothing is
// queued or retried. An Alertmanager gets a test alert that ends by itself after 5 minutes.
//
// A failure must not help anyone map the network behind the app: every failure answers the same
// thing (a refused target says why, as saving it would) at the same time after the button was
// pressed, FAILURE_ANSWER_MS, whether the port was closed, silent, not HTTP or answered an HTTP
// error; and no text of the target's answer is ever quoted back. Deliveries keep the status and
// timing in the channel's history, where only real alerts reach.

/** When every failed test answers: the send timeout, plus room for the connection to close. */
export const FAILURE_ANSWER_MS = DEFAULT_DELIVERY.timeoutMs + 1_000;

export const TEST_FAILED =
  "the target did not accept the test message (no answer, not HTTP, or an HTTP error: the test does not say which)";

export const TEST_FAILED_EMAIL =
  "the SMTP server did not accept the test message (no answer, TLS, authentication or a refusal: the test does not say which; deliveries record the reason)";

/** Waits until `totalMs` after `startedMs` (Date.now() time). */
export type HoldFailure = (startedMs: number, totalMs: number) => Promise<void>;

const untilDeadline: HoldFailure = (startedMs, totalMs) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, startedMs + totalMs - Date.now())));

export async function testChannel(
  id: string,
  {
    client = defaultDb,
    send = postJson,
    sendEmail = smtpSend,
    now = new Date(),
    allowPrivate = adminAllowsPrivate,
    holdFailure = untilDeadline,
  }: {
    client?: Db;
    send?: Sender;
    sendEmail?: EmailSender;
    now?: Date;
    allowPrivate?: AllowPrivate;
    holdFailure?: HoldFailure;
  } = {},
): Promise<ChannelTestResult> {
  const started = Date.now();
  const failed = async (error: string): Promise<ChannelTestResult> => {
    await holdFailure(started, FAILURE_ANSWER_MS);
    return { ok: false, httpStatus: null, error, durationMs: 0 };
  };
  const c = await client.channel.findUnique({ where: { id } });
  if (!c) throw new NotFoundError(`channel ${id}`);
  const kind = channelKind(c.kind);
  const message = buildMessage(
    `test-${now.getTime()}`,
    "firing",
    {
      id: "test",
      kind: "idle",
      severity: "info",
      state: "firing",
      summary: `Test message from gpufleet to channel “${c.name}”: if you can read this, delivery works.`,
      details: "{}",
      fingerprint: "test",
      startsAt: now,
      endsAt: null,
      hostId: null,
      gpuUuid: null,
      team: c.scopeKind === "team" ? c.scopeValue : null,
      project: c.scopeKind === "project" ? c.scopeValue : null,
      ruleName: "test",
    },
    null,
    true,
  );
  if (kind === "email") {
    // to the team's addresses, or to the From address of a channel that only reaches mapped people
    const config = parseEmailConfig(c.config);
    if (!config) return failed("the channel's SMTP settings are missing or invalid");
    const target = await vetTarget(smtpCheckUrl(config), allowPrivate);
    if (!target.ok) return failed(redactText(refusedMessage(target.reason), c.url));
    const to = config.to.length > 0 ? config.to : [config.from];
    const r = await sendPlanned({ config, to }, message, sendEmail, {
      timeoutMs: DEFAULT_DELIVERY.timeoutMs,
      allowPrivate: target.allowPrivate,
      publicUrl: DEFAULT_DELIVERY.publicUrl,
    });
    if (!r.ok) return failed(TEST_FAILED_EMAIL);
    return { ok: true, httpStatus: null, error: null, durationMs: r.durationMs };
  }
  if (!isHttpUrl(c.url)) return failed("the channel URL is not http(s)");
  const target = await vetTarget(c.url, allowPrivate);
  if (!target.ok) return failed(redactText(refusedMessage(target.reason), c.url));
  const payload = buildPayload(kind, message, now, { publicUrl: DEFAULT_DELIVERY.publicUrl });
  const r = await send(endpointFor(kind, c.url), payload, {
    timeoutMs: DEFAULT_DELIVERY.timeoutMs,
    allowPrivate: target.allowPrivate,
    keepErrorBody: 0,
  });
  if (!r.ok) return failed(TEST_FAILED);
  return { ok: true, httpStatus: r.httpStatus, error: null, durationMs: r.durationMs };
}
