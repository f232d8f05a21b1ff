import { lookupPrice, type PricedLookup } from "../pricing/lookup.ts";
import type { RecoInput } from "./types.ts";

/** A catalogue instance type a host could move to, priced as the host would be now. */
export interface Pick {
  instanceType: string;
  price: PricedLookup;
}

/**
 * Every other instance type the catalogue has for the host's provider, priced now under the
 * host's region and pricing model (region row over "*"), sorted by name; unpriced ones left out.
 * The right-size rules pick among these.
 */
export function otherPricedTypes(input: RecoInput): Pick[] {
  const { host, prices, now } = input;
  const provider = host.provider.toLowerCase();
  const self = host.instanceType.toLowerCase();
  const types = [
    ...new Set(
      prices.filter((p) => p.provider.toLowerCase() === provider).map((p) => p.instanceType),
    ),
  ].sort();
  const picks: Pick[] = [];
  for (const t of types) {
    if (t.toLowerCase() === self) continue;
    const price = lookupPrice(prices, { ...host, instanceType: t, at: now });
    if (price.priced) picks.push({ instanceType: t, price });
  }
  return picks;
}
