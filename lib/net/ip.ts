import { isIPv4, isIPv6 } from "node:net";

// IP address classification for outbound requests. Addresses are compared as bytes, never as
// text, so every spelling of an address (::ffff:a9fe:a9fe, ::ffff:169.254.169.254, …) is one key.

export type IpKind = "metadata" | "link-local" | "unspecified" | "loopback" | "other";

export interface ParsedIp {
  /** 4 bytes (IPv4) or 16 (IPv6); IPv6 forms that embed an IPv4 address are unwrapped to it */
  bytes: Uint8Array;
  /** the IPv4 address an IPv6 form carried (mapped, translated, compatible, NAT64, 6to4,
   * Teredo), if any */
  embeddedV4: string | null;
}

function parseV4(text: string): Uint8Array | null {
  if (!isIPv4(text)) return null;
  return Uint8Array.from(text.split(".").map(Number));
}

function parseV6(raw: string): Uint8Array | null {
  let text = raw.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!isIPv6(text)) return null;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseV4(tail);
    if (!v4) return null;
    const hex = (hi = 0, lo = 0) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
  }
  const [head = "", rest] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const restGroups = rest === undefined || rest === "" ? [] : rest.split(":");
  const fill = 8 - headGroups.length - restGroups.length;
  if (fill < 0 || (rest === undefined && fill !== 0)) return null;
  const groups = [...headGroups, ...Array<string>(fill).fill("0"), ...restGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    bytes[2 * i] = v >> 8;
    bytes[2 * i + 1] = v & 0xff;
  });
  return bytes;
}

const zeros = (b: Uint8Array, from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/**
 * The IPv4 address inside ::ffff:a.b.c.d, ::ffff:0:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d, a 6to4
 * address (2002:aabb:ccdd::/48, RFC 3056) and a Teredo one (2001:0::/32, RFC 4380: the client's
 * IPv4 address is the last 32 bits inverted), where a relay would carry the packets.
 */
function embedded(b: Uint8Array): Uint8Array | null {
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) {
    return b.slice(12).map((x) => ~x & 0xff); // Teredo client
  }
  const v4 = b.slice(12);
  const ffff = b[10] === 0xff && b[11] === 0xff;
  if (zeros(b, 0, 10) && ffff) return v4; // IPv4-mapped
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return v4; // translated
  if (zeros(b, 0, 12) && !zeros(b, 12, 15)) return v4; // IPv4-compatible, but not :: or ::1
  const nat64 = b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b;
  if (nat64 && zeros(b, 4, 12)) return v4; // NAT64 well-known prefix
  return null;
}

/** Parses a literal IPv4 or IPv6 address (brackets and zone ids allowed); null if it is not one. */
export function parseIp(text: string): ParsedIp | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseV4(bare);
  if (v4) return { bytes: v4, embeddedV4: null };
  const v6 = parseV6(bare);
  if (!v6) return null;
  const inner = embedded(v6);
  return inner ? { bytes: inner, embeddedV4: inner.join(".") } : { bytes: v6, embeddedV4: null };
}

/** One key per address, whatever its spelling. */
export function ipKey(ip: ParsedIp): string {
  return Array.from(ip.bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

interface Range {
  bytes: Uint8Array;
  bits: number;
  kind: Exclude<IpKind, "other">;
}

function range(cidr: string, kind: Range["kind"]): Range {
  const [addr = "", bits = ""] = cidr.split("/");
  const ip = parseIp(addr);
  if (!ip) throw new Error(`bad range ${cidr}`);
  return { bytes: ip.bytes, bits: Number(bits), kind };
}

// Most specific first: the metadata addresses sit inside link-local (and CGNAT) ranges.
const RANGES: readonly Range[] = [
  range("169.254.169.254/32", "metadata"), // AWS, GCP, Azure, OCI, DigitalOcean, …
  range("fd00:ec2::254/128", "metadata"), // AWS over IPv6
  range("100.100.100.200/32", "metadata"), // Alibaba Cloud
  range("168.63.129.16/32", "metadata"), // Azure WireServer (VM agent, DHCP, DNS, health probes)
  range("169.254.0.0/16", "link-local"),
  range("fe80::/10", "link-local"),
  range("0.0.0.0/8", "unspecified"), // "this network": 0.0.0.0 reaches this machine
  range("::/128", "unspecified"),
  range("127.0.0.0/8", "loopback"),
  range("::1/128", "loopback"),
];

function inRange(bytes: Uint8Array, r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  for (let bit = 0; bit < r.bits; bit += 8) {
    const n = Math.min(8, r.bits - bit);
    const mask = (0xff << (8 - n)) & 0xff;
    const i = bit / 8;
    if (((bytes[i] ?? 0) & mask) !== ((r.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

export function ipKind(ip: ParsedIp): IpKind {
  return RANGES.find((r) => inRange(ip.bytes, r))?.kind ?? "other";
}
