import { pushTo } from "../core/group.ts";
import { hostKeys, sameRegion } from "./instance-key.ts";

// Billed lines meet hosts on provider + instance key + region (docs/architecture.md, "Billing").

export interface MatchHost {
  id: string;
  hostname: string;
  provider: string;
  region: string;
  instanceId: string | null;
}

export interface MatchLine {
  provider: string;
  instanceKey: string;
  region: string;
}

/** A function from a line to the host it belongs to (or null: a GPU nobody monitors). */
export function hostMatcher<H extends MatchHost>(
  hosts: readonly H[],
): (line: MatchLine) => H | null {
  const byKey = new Map<string, H[]>();
  for (const h of hosts) {
    for (const key of hostKeys(h)) {
      const k = `${h.provider}|${key}`;
      pushTo(byKey, k, h);
    }
  }
  const cache = new Map<string, H | null>();
  return (line) => {
    const k = `${line.provider}|${line.instanceKey}|${line.region}`;
    const hit = cache.get(k);
    if (hit !== undefined) return hit;
    const candidates = byKey.get(`${line.provider}|${line.instanceKey}`) ?? [];
    const found = candidates.find((h) => sameRegion(h.region, line.region)) ?? null;
    cache.set(k, found);
    return found;
  };
}
