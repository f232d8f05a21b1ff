import "server-only";
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import { env } from "@/lib/env.ts";
import { ipKey, ipKind, parseIp } from "./ip.ts";

// Where a webhook may be sent. Without the admin's "allow private targets", a target may not be a
// link-local or cloud metadata address, an unspecified address, or this app itself (its port on
// loopback or on one of this machine's addresses, or its public URL). Other private ports stay open.

export type TargetVerdict = { ok: true } | { ok: false; reason: string };

/** How this app can be reached, so that a webhook cannot be pointed back at it. */
export interface AppSelf {
  port: number;
  /** host and port of GPUFLEET_PUBLIC_URL */
  publicUrl: { host: string; port: number } | null;
  /** this machine's interface addresses */
  addresses: readonly string[];
}

export type Resolve = (hostname: string) => Promise<string[]>;

export interface TargetCheckOptions {
  allowPrivate: boolean;
  self?: AppSelf;
  resolve?: Resolve;
  /** DNS answer deadline; a host that does not resolve in time is left to the connection's check */
  timeoutMs?: number;
}

export const DNS_TIMEOUT_MS = 2_000;

export function effectivePort(u: URL): number {
  return u.port !== "" ? Number(u.port) : u.protocol === "https:" ? 443 : 80;
}

/** URL hostname without IPv6 brackets or a trailing root dot. */
export function bareHost(hostname: string): string {
  const h = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return h.toLowerCase().replace(/\.+$/, "");
}

export function appSelf(): AppSelf {
  const pub = env.GPUFLEET_PUBLIC_URL ? new URL(env.GPUFLEET_PUBLIC_URL) : null;
  return {
    port: env.PORT,
    publicUrl: pub ? { host: bareHost(pub.hostname), port: effectivePort(pub) } : null,
    addresses: Object.values(networkInterfaces()).flatMap((list) =>
      (list ?? []).map((i) => i.address),
    ),
  };
}

const KIND_TEXT = {
  metadata: "is a cloud metadata address",
  "link-local": "is a link-local address",
  unspecified: "is an unspecified address (it reaches this machine)",
} as const;

/** Why `address` may not be connected to on `port` ("is …"), or null when it may. */
function refusal(address: string, port: number, self: AppSelf): string | null {
  const ip = parseIp(address);
  if (!ip) return "is not an IP address";
  const kind = ipKind(ip);
  if (kind === "metadata" || kind === "link-local" || kind === "unspecified")
    return KIND_TEXT[kind];
  if (port !== self.port) return null;
  if (kind === "loopback") return `is this app itself (loopback on the app's port ${port})`;
  const key = ipKey(ip);
  const own = self.addresses.some((a) => {
    const p = parseIp(a);
    return p !== null && ipKey(p) === key;
  });
  return own ? `is this app itself (this machine on the app's port ${port})` : null;
}

function shown(address: string): string {
  const v4 = parseIp(address)?.embeddedV4;
  return v4 ? `${address} (IPv4 ${v4})` : address;
}

/**
 * Checks one address that a connection to `port` would use; `host` names the hostname it was
 * resolved from, for the message.
 */
export function checkAddress(
  address: string,
  port: number,
  opts: { allowPrivate: boolean; self?: AppSelf; host?: string },
): TargetVerdict {
  if (opts.allowPrivate) return { ok: true };
  const why = refusal(address, port, opts.self ?? appSelf());
  if (why === null) return { ok: true };
  const reason = opts.host
    ? `${opts.host} resolves to ${shown(address)}, which ${why}`
    : `${shown(address)} ${why}`;
  return { ok: false, reason };
}

/**
 * The part of the check that needs no DNS: the scheme, the public URL's host:port, and a literal
 * IP or localhost name. Returns the addresses still to check (empty when a name must be resolved).
 */
export function checkUrlStatically(
  url: string,
  opts: { allowPrivate: boolean; self?: AppSelf },
): { verdict: TargetVerdict; host: string; port: number; literal: string[] } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { verdict: { ok: false, reason: "not a valid URL" }, host: "", port: 0, literal: [] };
  }
  const host = bareHost(u.hostname);
  const port = effectivePort(u);
  const done = (verdict: TargetVerdict) => ({ verdict, host, port, literal: [] });
  if (u.protocol !== "http:" && u.protocol !== "https:")
    return done({ ok: false, reason: "only http:// and https:// URLs are allowed" });
  if (host === "") return done({ ok: false, reason: "the URL needs a host" });
  if (opts.allowPrivate) return done({ ok: true });
  const self = opts.self ?? appSelf();
  const pub = self.publicUrl;
  if (pub && bareHost(pub.host) === host && pub.port === port)
    return done({ ok: false, reason: `${host}:${port} is this app's public URL` });
  // RFC 6761: localhost names are loopback, whatever a resolver says.
  const isLiteral = parseIp(host) !== null;
  const literal = isLiteral
    ? [host]
    : host === "localhost" || host.endsWith(".localhost")
      ? ["127.0.0.1", "::1"]
      : [];
  for (const a of literal) {
    const v = checkAddress(a, port, { allowPrivate: false, self, ...(isLiteral ? {} : { host }) });
    if (!v.ok) return done(v);
  }
  return { verdict: { ok: true }, host, port, literal };
}

const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no DNS answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Refuses a webhook URL whose host is, or resolves to, a refused address (see the top of this
 * file). A name that does not resolve is not refused here: it cannot be judged, and the
 * connection's own lookup (targetLookup) checks the addresses it actually gets.
 */
export async function checkWebhookTarget(
  url: string,
  opts: TargetCheckOptions,
): Promise<TargetVerdict> {
  const self = opts.allowPrivate ? undefined : (opts.self ?? appSelf());
  const first = checkUrlStatically(url, { allowPrivate: opts.allowPrivate, self });
  if (!first.verdict.ok || opts.allowPrivate || first.literal.length > 0) return first.verdict;
  let addresses: string[];
  try {
    addresses = await withTimeout(
      (opts.resolve ?? systemResolve)(first.host),
      opts.timeoutMs ?? DNS_TIMEOUT_MS,
    );
  } catch {
    return { ok: true };
  }
  for (const a of addresses) {
    const v = checkAddress(a, first.port, { allowPrivate: false, self, host: first.host });
    if (!v.ok) return v;
  }
  return { ok: true };
}
