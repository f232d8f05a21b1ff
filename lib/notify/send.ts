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
  /** keep up to this many bytes of a failed answer's body and quote its message in `error` */
  keepErrorBody?: number;
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

/** The message in an error answer: a JSON string, a JSON object's message/error, or the text. */
export function answerMessage(text: string, max = 300): string {
  let out = text.trim();
  try {
    const v: unknown = JSON.parse(out);
    if (typeof v === "string") out = v;
    else if (typeof v === "object" && v !== null) {
      const o = v as { message?: unknown; error?: unknown };
      if (typeof o.message === "string") out = o.message;
      else if (typeof o.error === "string") out = o.error;
    }
  } catch {
    /* plain text */
  }
  // Alertmanager joins one error per refused alert with "; ": say each once
  out = [...new Set(out.replace(/\s+/g, " ").split("; "))].join("; ").trim();
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

function readText(res: http.IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, max).toString("utf8"));
    res.on("data", (c: Buffer) => {
      if (size >= max) return;
      chunks.push(c);
      size += c.length;
    });
    res.on("end", done);
    res.on("close", done);
    res.on("error", done);
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
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    const keep = !ok && status >= 400 ? (opts.keepErrorBody ?? 0) : 0;
    // Otherwise the receiver's text is not kept; drain it so the connection closes cleanly.
    const answer = keep > 0 ? answerMessage(await readText(res, keep)) : "";
    if (keep === 0) {
      res.on("error", () => {});
      res.resume();
    }
    const text = `HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ""}`;
    const redirect = status >= 300 && status < 400 ? ": redirects are not followed" : "";
    const said = answer !== "" ? `: ${answer}` : "";
    return result(ok, status, ok ? null : `${text}${redirect}${said}`);
  } catch (e) {
    const refused = e instanceof TargetRefusedError;
    return result(false, null, refused ? e.message : describe(e, opts.timeoutMs, signal.aborted));
  }
};
