import { request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { z } from "zod";

// Minimal client for the Prometheus HTTP API (also served by Thanos, Mimir, VictoriaMetrics).
// Responses are validated so a proxy's HTML error page becomes a clear error, not a crash.
// Credentials (basic auth, a bearer token, or `user:password@` in the URL) and extra headers go
// with every request; no message ever shows them: addresses are shown as scheme, host and path.

// Result arrays are checked by hand: a zod parse of every sample costs more than the query itself
// at 10,000 GPUs (tens of thousands of series), and blocks the event loop while it runs.
export interface InstantSample {
  metric: Record<string, string>;
  value: [number, string];
}
export interface RangeSeries {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}
const envelope = z.object({
  status: z.enum(["success", "error"]),
  data: z.object({ resultType: z.string(), result: z.unknown() }).optional(),
  error: z.string().optional(),
  errorType: z.string().optional(),
});

export type InstantVector = InstantSample[];
export type RangeMatrix = RangeSeries[];

export class PromApiError extends Error {}

function isPoint(p: unknown): p is [number, string] {
  return Array.isArray(p) && typeof p[0] === "number" && typeof p[1] === "string";
}

function isLabels(m: unknown): m is Record<string, string> {
  return typeof m === "object" && m !== null && !Array.isArray(m);
}

function shapeError(kind: string): PromApiError {
  return new PromApiError(`Prometheus answered with something that is not ${kind}`);
}

/** The `result` of an instant query, checked to be a vector. */
export function asVector(result: unknown): InstantVector {
  if (!Array.isArray(result)) throw shapeError("a vector");
  for (const s of result as Array<Partial<InstantSample> | null>) {
    if (!s || !isLabels(s.metric) || !isPoint(s.value)) throw shapeError("a vector");
  }
  return result as InstantVector;
}

/** The `result` of a range query, checked to be a matrix. */
export function asMatrix(result: unknown): RangeMatrix {
  if (!Array.isArray(result)) throw shapeError("a matrix");
  for (const s of result as Array<Partial<RangeSeries> | null>) {
    if (!s || !isLabels(s.metric) || !Array.isArray(s.values) || !s.values.every(isPoint))
      throw shapeError("a matrix");
  }
  return result as RangeMatrix;
}

/** Credentials sent with every request. They never appear in a message. */
export type PromAuth =
  { kind: "basic"; username: string; password: string } | { kind: "bearer"; token: string };

export interface PromClientOptions {
  auth?: PromAuth;
  /** extra request headers, e.g. `{ "X-Scope-OrgID": "team-a" }` for Mimir and Cortex */
  headers?: Record<string, string>;
  /** PEM text of the CA certificate(s) an https Prometheus is verified against, in place of the
   * system's CAs */
  ca?: string;
  /** for each request, from connecting to the last byte of the answer */
  timeoutMs?: number;
}

export interface PromClient {
  query(promql: string, at?: Date): Promise<InstantVector>;
  queryRange(promql: string, from: Date, to: Date, stepS: number): Promise<RangeMatrix>;
}

export interface PromUrl {
  /** where requests go, without credentials */
  target: URL;
  /** the path before /api/v1/…, without a trailing slash ("" at the root) */
  basePath: string;
  /** the address as messages show it: scheme, host and path, never credentials or a query */
  shown: string;
  /** basic auth from the URL's `user:password@`, which Node's HTTP clients will not send */
  auth: PromAuth | undefined;
}

function decodeUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Splits a Prometheus base URL into where to send requests, what to show and its credentials. */
export function parsePromUrl(baseUrl: string): PromUrl {
  let target: URL;
  try {
    target = new URL(baseUrl);
  } catch {
    // the text is not repeated: it may hold a password
    throw new PromApiError("the Prometheus URL (PROMETHEUS_URL) is not a valid URL");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new PromApiError(
      `the Prometheus URL (PROMETHEUS_URL) must start with http:// or https://, not ${target.protocol}//`,
    );
  const auth: PromAuth | undefined =
    target.username !== "" || target.password !== ""
      ? {
          kind: "basic",
          username: decodeUserinfo(target.username),
          password: decodeUserinfo(target.password),
        }
      : undefined;
  target.username = "";
  target.password = "";
  target.hash = "";
  const basePath = target.pathname.replace(/\/+$/, "");
  return { target, basePath, shown: `${target.protocol}//${target.host}${basePath}`, auth };
}

/** `location` resolved against `base`, without credentials or a query, for a message. */
function shownLocation(location: string, base: URL): string {
  try {
    const u = new URL(location, base);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "an address that is not a URL";
  }
}

/** Node's codes for a certificate it could not verify. */
const CERT_CODES = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "CERT_SIGNATURE_FAILURE",
  "CERT_NOT_YET_VALID",
  "CERT_HAS_EXPIRED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_CHAIN_TOO_LONG",
  "INVALID_CA",
  "INVALID_PURPOSE",
  "HOSTNAME_MISMATCH",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

class TimeoutError extends Error {}
/** The connection failed after the answer had begun. */
class CutError extends Error {}

interface Answer {
  status: number;
  text: string;
  location: string | undefined;
}

export function createPromClient(baseUrl: string, options: PromClientOptions = {}): PromClient {
  const { target, basePath, shown, auth: urlAuth } = parsePromUrl(baseUrl);
  if (urlAuth && options.auth)
    throw new PromApiError(
      "credentials are given both in the Prometheus URL and separately: give them once",
    );
  const auth = options.auth ?? urlAuth;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const https = target.protocol === "https:";
  // Node's fetch cannot take a CA of its own without the undici package, so requests go through
  // node:http and node:https; an Agent keeps connections open between requests, as fetch did.
  const agent =
    https && options.ca ? new HttpsAgent({ ca: options.ca, keepAlive: true }) : undefined;
  const headers: Record<string, string> = {
    ...options.headers,
    accept: "application/json",
    "accept-encoding": "gzip",
    "content-type": "application/x-www-form-urlencoded",
  };
  if (auth?.kind === "basic")
    headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
  if (auth?.kind === "bearer") headers.authorization = `Bearer ${auth.token}`;
  // where the credentials came from, to name in a refusal
  const credentialSettings =
    auth === undefined
      ? ""
      : urlAuth
        ? "the user and password in PROMETHEUS_URL"
        : auth.kind === "basic"
          ? "PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE"
          : "PROMETHEUS_BEARER_TOKEN_FILE";

  function send(path: string, form: string): Promise<Answer> {
    const url = new URL(target);
    url.pathname = `${basePath}${path}`;
    const body = Buffer.from(form);
    return new Promise<Answer>((resolve, reject) => {
      let timedOut = false;
      const fail = (e: unknown) => reject(timedOut ? new TimeoutError() : e);
      const cut = (e: Error) => fail(new CutError(e.message));
      const req = (https ? httpsRequest : httpRequest)(
        url,
        {
          method: "POST",
          headers: { ...headers, "content-length": String(body.length) },
          ...(agent ? { agent } : {}),
        },
        (res) => {
          const stream: Readable =
            res.headers["content-encoding"] === "gzip" ? res.pipe(createGunzip()) : res;
          const chunks: Buffer[] = [];
          let ended = false;
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", cut);
          stream.on("end", () => {
            ended = true;
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString("utf8"),
              location: res.headers.location,
            });
          });
          res.on("error", cut);
          res.on("close", () => {
            if (!ended && !res.complete) cut(new Error("the connection closed"));
          });
        },
      );
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new TimeoutError());
      }, timeoutMs);
      const settle = () => clearTimeout(timer);
      req.on("error", (e) => {
        settle();
        fail(e);
      });
      req.on("close", settle);
      req.end(body);
    });
  }

  function transportError(e: unknown): PromApiError {
    if (e instanceof TimeoutError)
      return new PromApiError(`Prometheus at ${shown} did not answer within ${timeoutMs} ms`);
    if (e instanceof CutError)
      return new PromApiError(`Prometheus at ${shown} broke off its answer: ${e.message}`);
    const err = e as NodeJS.ErrnoException;
    const code = typeof err.code === "string" ? err.code : "";
    if (CERT_CODES.has(code)) {
      const hint =
        code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH"
          ? "use a host name its certificate is issued for in PROMETHEUS_URL, or have the certificate name this one; PROMETHEUS_CA_FILE does not help here"
          : options.ca
            ? "check that PROMETHEUS_CA_FILE holds the certificate of the CA that signed it (or, if self-signed, the certificate itself)"
            : "set PROMETHEUS_CA_FILE to a PEM file with the certificate of the CA that signed it (or, if self-signed, the certificate itself)";
      return new PromApiError(
        `TLS verification of Prometheus at ${shown} failed: ${err.message} (${code}); ${hint}`,
      );
    }
    if (https && (code === "EPROTO" || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")))
      return new PromApiError(
        `TLS handshake with Prometheus at ${shown} failed: ${err.message} (does it serve https there?)`,
      );
    return new PromApiError(`Prometheus unreachable at ${shown}: ${err.message}`);
  }

  function statusError(res: Answer): PromApiError | null {
    if (res.status === 401)
      return new PromApiError(
        auth
          ? `401 from Prometheus at ${shown}: the credentials were refused (check ${credentialSettings})`
          : `401 from Prometheus at ${shown}: it wants credentials and none were sent (set ` +
              "PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE, or PROMETHEUS_BEARER_TOKEN_FILE; " +
              "Mimir and Cortex also answer 401 without an X-Scope-OrgID in PROMETHEUS_HEADERS)",
      );
    if (res.status === 403)
      return new PromApiError(
        `403 from Prometheus at ${shown}: access was refused (check ` +
          (auth ? `${credentialSettings}, and ` : "") +
          "the tenant or other headers in PROMETHEUS_HEADERS)",
      );
    if (res.status >= 300 && res.status < 400)
      return new PromApiError(
        `Prometheus at ${shown} answered HTTP ${res.status}, a redirect` +
          (res.location ? ` to ${shownLocation(res.location, target)}` : "") +
          ": set PROMETHEUS_URL to the address that answers",
      );
    return null;
  }

  async function call(path: string, params: Record<string, string>): Promise<unknown> {
    let res: Answer;
    try {
      res = await send(path, new URLSearchParams(params).toString());
    } catch (e) {
      throw transportError(e);
    }
    const refused = statusError(res);
    if (refused) throw refused;
    let body: z.infer<typeof envelope>;
    try {
      body = envelope.parse(JSON.parse(res.text));
    } catch {
      throw new PromApiError(
        `Prometheus at ${shown} answered HTTP ${res.status} with something that is not its API`,
      );
    }
    if (body.status === "error" || !body.data) {
      throw new PromApiError(
        `Prometheus query failed: ${body.errorType ?? ""} ${body.error ?? ""}`.trim(),
      );
    }
    return body.data.result;
  }

  return {
    async query(promql: string, at?: Date): Promise<InstantVector> {
      const params: Record<string, string> = { query: promql };
      if (at) params.time = String(at.getTime() / 1000);
      return asVector(await call("/api/v1/query", params));
    },
    async queryRange(promql: string, from: Date, to: Date, stepS: number): Promise<RangeMatrix> {
      return asMatrix(
        await call("/api/v1/query_range", {
          query: promql,
          start: String(from.getTime() / 1000),
          end: String(to.getTime() / 1000),
          step: String(stepS),
        }),
      );
    },
  };
}

export function promNumber(v: string): number | null {
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Escapes a value for use inside a PromQL double-quoted label matcher. */
export function promString(v: string): string {
  return JSON.stringify(v);
}
