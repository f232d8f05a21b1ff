import { redactText } from "./url.ts";

// One HTTP POST with a hard timeout. Redirects are not followed (a webhook that redirects is
// misconfigured, and following it could send the payload somewhere unvetted).

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
}

export type Sender = (url: string, body: unknown, opts: SendOptions) => Promise<SendResult>;

function describe(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError")
    return `no answer within ${timeoutMs} ms`;
  const cause = err.cause?.code ?? err.cause?.message;
  return cause ? `${err.message} (${cause})` : err.message;
}

export const postJson: Sender = async (url, body, opts) => {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "gpufleet-notifier/1",
        ...(opts.idempotencyKey ? { "idempotency-key": opts.idempotencyKey } : {}),
      },
      body: JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    // Drain a little of the body so the connection is released; receivers' text is not kept.
    await res.text().catch(() => "");
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      httpStatus: res.status,
      error: ok ? null : `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`,
      durationMs: Date.now() - started,
    };
  } catch (e) {
    return {
      ok: false,
      httpStatus: null,
      error: redactText(describe(e, opts.timeoutMs), url),
      durationMs: Date.now() - started,
    };
  }
};
