import { lookupPrice } from "@/lib/pricing/lookup.ts";
import { priceNoteOf } from "@/lib/pricing/price-note.ts";
import type { PriceRow } from "@/lib/pricing/types.ts";
import type { HostLike, HostPrice } from "./summarize.ts";

/**
 * Each host's catalogue price in effect at `at`; null where none matches (unpriced). A host's zone,
 * where known, prices a spot host at its zone's market price (spot price history).
 */
export function priceHosts(
  hosts: readonly (Pick<
    HostLike,
    "id" | "provider" | "instanceType" | "region" | "pricingModel"
  > & {
    zone?: string | null;
  })[],
  rows: readonly PriceRow[],
  at: Date,
): Map<string, HostPrice | null> {
  return new Map(
    hosts.map((h) => {
      const p = lookupPrice(rows, { ...h, at });
      const price: HostPrice | null = p.priced
        ? {
            perHourMicros: p.usdPerHourMicros,
            currency: p.currency,
            gpuCount: p.gpuCount,
            note: priceNoteOf(p, h.region),
          }
        : null;
      return [h.id, price];
    }),
  );
}
