import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../core/errors.ts";
import type { ChannelTestResult } from "../zod/schemas/channel.ts";
import { channelKind, DEFAULT_DELIVERY } from "./deliver.ts";
import { buildMessage } from "./message.ts";
import { buildPayload, endpointFor, errorBodyBytes } from "./payload.ts";
import { postJson, type Sender } from "./send.ts";
import {
  adminAllowsPrivate,
  refusedMessage,
  vetTarget,
  type AllowPrivate,
} from "./target-policy.ts";
import { isHttpUrl, redactText } from "./url.ts";

// The settings page's test button: one real POST of a clearly marked test message, synchronous,
// with the same timeout as deliveries, to a target the webhook target check allows. Nothing is
// queued or retried. An Alertmanager gets a test alert that ends by itself after 5 minutes.

export async function testChannel(
  id: string,
  {
    client = defaultDb,
    send = postJson,
    now = new Date(),
    allowPrivate = adminAllowsPrivate,
  }: { client?: Db; send?: Sender; now?: Date; allowPrivate?: AllowPrivate } = {},
): Promise<ChannelTestResult> {
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
  if (!isHttpUrl(c.url)) {
    return { ok: false, httpStatus: null, error: "the channel URL is not http(s)", durationMs: 0 };
  }
  const target = await vetTarget(c.url, allowPrivate);
  if (!target.ok) {
    const error = redactText(refusedMessage(target.reason), c.url);
    return { ok: false, httpStatus: null, error, durationMs: 0 };
  }
  const payload = buildPayload(kind, message, now, { publicUrl: DEFAULT_DELIVERY.publicUrl });
  const r = await send(endpointFor(kind, c.url), payload, {
    timeoutMs: DEFAULT_DELIVERY.timeoutMs,
    allowPrivate: target.allowPrivate,
    keepErrorBody: errorBodyBytes(kind),
  });
  // Without an HTTP answer, one message and no duration: "refused" vs "timed out" vs "reset"
  // would tell an admin which ports are open on an internal address (a blind port scan).
  if (!r.ok && r.httpStatus === null) {
    return { ok: false, httpStatus: null, error: NO_HTTP_ANSWER, durationMs: 0 };
  }
  return {
    ok: r.ok,
    httpStatus: r.httpStatus,
    error: r.error === null ? null : redactText(r.error, c.url),
    durationMs: r.durationMs,
  };
}

export const NO_HTTP_ANSWER =
  "no HTTP answer from the target (refused, reset, timed out or not HTTP: the test does not say which)";
