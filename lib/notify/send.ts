import "server-only";
import http from "node:http";
import https from "node:https";
import { targetLookup, TargetRefusedError } from "../net/target-lookup.ts";
import { checkUrlStatically } from "../net/webhook-target.ts";
import { redactText } from "./url.ts";

// One HTTP POST with a hard timeout, on node:http rather than fetch so that the socket connects
// only to addresses the webhook target check allows (see lib/net/target-lookup.ts). Redirects are
// never followed: a webhook that redirects is misconfigured, and the next hop is unvetted.

export interface SendResult {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  /** lets a receiver drop a repeat of a delivery it already accepted (at-least-once) */
  idempotencyKey?: string;
  /** the admin allows private targets (vetTarget decided); default: refuse them */
  allowPrivate?: boolean;
}

export type Sender = (url: string, body: unknown, opts: SendOptions) => Promise<SendResult>;

function describe(e: unknown, timeoutMs: number, timedOut: boolean): string {
  const err = e as NodeJS.ErrnoException;
  if (timedOut || err.name === "TimeoutError" || err.name === "AbortError")
    return `no answer within ${timeoutMs} ms`;
  const code = err.code;
  return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

function post(
  url: URL,
  payload: Buffer,
  headers: Record<string, string>,
  options: { lookup: http.RequestOptions["lookup"]; signal: AbortSignal },
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(payload.length) },
        // one connection per request: no pooled socket outlives the check that opened it
        agent: false,
        lookup: options.lookup,
        signal: options.signal,
      },
      resolve,
    );
    req.on("error", reject);
    req.end(payload);
  });
}

export const postJson: Sender = async (url, body, opts) => {
  const started = Date.now();
  const result = (ok: boolean, httpStatus: number | null, error: string | null): SendResult => ({
    ok,
    httpStatus,
    error: error === null ? null : redactText(error, url),
    durationMs: Date.now() - started,
  });
  const allowPrivate = opts.allowPrivate ?? false;
  const target = checkUrlStatically(url, { allowPrivate });
  if (!target.verdict.ok) return result(false, null, `refused: ${target.verdict.reason}`);
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await post(
      new URL(url),
      Buffer.from(JSON.stringify(body)),
      {
        "content-type": "application/json",
        "user-agent": "gpufleet-notifier/1",
        ...(opts.idempotencyKey ? { "idempotency-key": opts.idempotencyKey } : {}),
      },
      { lookup: targetLookup(target.port, { allowPrivate }), signal },
    );
    // The receiver's text is not kept; drain it so the connection closes cleanly.
    res.on("error", () => {});
    res.resume();
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    const text = `HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ""}`;
    const redirect = status >= 300 && status < 400 ? ": redirects are not followed" : "";
    return result(ok, status, ok ? null : `${text}${redirect}`);
  } catch (e) {
    const refused = e instanceof TargetRefusedError;
    return result(false, null, refused ? e.message : describe(e, opts.timeoutMs, signal.aborted));
  }
};
