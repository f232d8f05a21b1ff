import { BlockList, isIP } from "node:net";

// GPUFLEET_TRUSTED_PROXIES, checked when the environment is read (lib/env.ts); who is calling is
// worked out from it in lib/server/forwarded.ts.

/** "10.0.0.0/8, 192.168.1.7, fd00::/8" → a list node:net checks addresses against. */
export function parseTrustedProxies(text: string | undefined): BlockList {
  const list = new BlockList();
  for (const raw of (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr = "", bits] = raw.split("/");
    const family = isIP(addr);
    if (family === 0) throw new Error(`GPUFLEET_TRUSTED_PROXIES: "${raw}" is not an IP or CIDR`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) {
      list.addAddress(addr, type);
      continue;
    }
    const prefix = Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128))
      throw new Error(`GPUFLEET_TRUSTED_PROXIES: "${raw}" has a bad prefix length`);
    list.addSubnet(addr, prefix, type);
  }
  return list;
}
