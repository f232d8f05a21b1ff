// One metadata request: Node's fetch with a hard timeout, no redirects (a token must not follow
// one), no proxy (Node's fetch ignores HTTP_PROXY), and a cap on the answer's size. The value
// helpers refuse what a metadata service would not send: HTML (a captive portal or a proxy's
// error page), an empty answer, a huge one, or text that is not a single plain value.

import type { ClientOptions } from "./types.ts";

export const MAX_ANSWER_BYTES = 128 * 1024;

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

export interface RequestInit {
  method?: "GET" | "PUT";
  headers?: Record<string, string>;
}

function reason(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return err.name === "TimeoutError" ? `no answer within ${timeoutMs}ms` : "cancelled";
  }
  const cause = err instanceof Error ? (err.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (err instanceof Error ? err.message : String(err));
}

async function readCapped(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`answer larger than ${MAX_ANSWER_BYTES / 1024} KiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function metaFetch(
  opts: ClientOptions,
  path: string,
  init: RequestInit = {},
): Promise<Answer> {
  const url = opts.base + path;
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    const res = await fetch(url, {
      method: init.method ?? "GET",
      headers: init.headers,
      redirect: "manual",
      signal,
    });
    const text = await readCapped(res);
    return { status: res.status, text, headers: res.headers };
  } catch (err) {
    throw new Error(`${init.method ?? "GET"} ${path}: ${reason(err, opts.timeoutMs)}`);
  }
}

function looksHtml(a: Answer): boolean {
  return (
    /text\/html/i.test(a.headers.get("content-type") ?? "") ||
    /^\s*<(!doctype|html|head|body|\?xml)/i.test(a.text)
  );
}

/** A 200 answer, or an Error naming the path and what came back instead. */
export function ok(a: Answer, path: string): Answer {
  if (a.status !== 200) throw new Error(`${path}: HTTP ${a.status}`);
  if (looksHtml(a)) throw new Error(`${path}: an HTML page, not metadata`);
  return a;
}

const PLAIN = /^[\x21-\x7e]{1,256}$/;

/** A single printable token such as "p4d.24xlarge" or "us-east-1a". */
export function plain(a: Answer, path: string): string {
  const text = ok(a, path).text.trim();
  if (text === "") throw new Error(`${path}: empty answer`);
  if (!PLAIN.test(text)) {
    const what = text.length > 256 ? `${text.length} characters` : JSON.stringify(text);
    throw new Error(`${path}: not a plain value (${what.slice(0, 60)})`);
  }
  return text;
}

/** A plain value, or undefined when the path does not exist (HTTP 404). */
export function optionalPlain(a: Answer, path: string): string | undefined {
  return a.status === 404 ? undefined : plain(a, path);
}

export function json(a: Answer, path: string): unknown {
  const text = ok(a, path).text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${path}: not JSON (${JSON.stringify(text.slice(0, 40))})`);
  }
}

/** Unix seconds from a date the provider printed; an Error when it is not one. */
export function seconds(text: string, what: string): number {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new Error(`${what}: not a time (${JSON.stringify(text)})`);
  return Math.floor(ms / 1000);
}

/** A session token for AWS/Alibaba-style services: PUT, then the token in a header. */
export function tokenCache(
  opts: ClientOptions,
  put: () => Promise<{ token: string; ttlS: number }>,
): { get(fresh?: boolean): Promise<string> } {
  let cached: { token: string; until: number } | undefined;
  const now = opts.now ?? Date.now;
  return {
    async get(fresh = false) {
      if (!fresh && cached && now() < cached.until) return cached.token;
      const { token, ttlS } = await put();
      cached = { token, until: now() + (ttlS - 60) * 1000 }; // renew a minute early
      return token;
    },
  };
}
