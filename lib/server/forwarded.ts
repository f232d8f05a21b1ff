import type { IncomingMessage } from "node:http";
import type { BlockList } from "node:net";
import { parseIp } from "../net/ip.ts";

// Who is calling: the socket's peer, unless that peer is a proxy the operator trusts
// (GPUFLEET_TRUSTED_PROXIES), in which case the nearest untrusted address of its
// X-Forwarded-For. scripts/serve.ts rewrites X-Forwarded-For to that one address before Next and
// better-auth see the request, so a client cannot pick the IP that per-IP limits and the audit
// log use by sending the header itself.

/** The address as node:net would check it: IPv4-mapped IPv6 (::ffff:a.b.c.d) unwrapped. */
function normal(address: string): { addr: string; type: "ipv4" | "ipv6" } | null {
  const parsed = parseIp(address.trim());
  if (!parsed) return null;
  if (parsed.bytes.length === 4) {
    return { addr: parsed.embeddedV4 ?? address.trim(), type: "ipv4" };
  }
  return { addr: address.trim().replace(/^\[|\]$/g, ""), type: "ipv6" };
}

function trusted(list: BlockList, address: string): boolean {
  const n = normal(address);
  return n !== null && list.check(n.addr, n.type);
}

/**
 * The client's address: the peer's, or, behind trusted proxies, the right-most address of
 * X-Forwarded-For that is not itself a trusted proxy (the left part is whatever the client sent).
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  proxies: BlockList,
): string | null {
  const start = peer ? (normal(peer)?.addr ?? peer) : null;
  if (!start || !trusted(proxies, start)) return start;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? "";
    const n = normal(hop);
    if (!n) return start; // garbage from here on: trust nothing further left
    if (!trusted(proxies, n.addr)) return n.addr;
  }
  return hops.length > 0 ? (normal(hops[0] ?? "")?.addr ?? start) : start;
}

/** For the server in front of Next: one trustworthy X-Forwarded-For, no X-Real-IP. */
export function applyForwarded(req: IncomingMessage, proxies: BlockList): void {
  const header = req.headers["x-forwarded-for"];
  const forwarded = Array.isArray(header) ? header.join(",") : header;
  const client = clientAddress(req.socket.remoteAddress, forwarded, proxies);
  delete req.headers["x-real-ip"];
  if (client) req.headers["x-forwarded-for"] = client;
  else delete req.headers["x-forwarded-for"];
}
