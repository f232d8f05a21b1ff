// What a page says beside a host's price: "fallback (no eu-west-1 price)" when the "*" row priced
// it, and "¥11.63/h at 0.13748728 USD/CNY (2025-02)" when it was converted from another currency.
import { formatCents } from "../core/money.ts";
import { priceRegionNote, type PricedLookup } from "./lookup.ts";

const SYMBOL: Record<string, string> = { CNY: "¥" };

export function priceNoteOf(p: PricedLookup, hostRegion: string): string | null {
  const parts: string[] = [];
  const fallback = priceRegionNote(p.region, hostRegion);
  if (fallback) parts.push(fallback);
  if (p.exchangeRate && p.localCurrency && p.localPerHourMicros != null) {
    const sym = SYMBOL[p.localCurrency] ?? `${p.localCurrency} `;
    parts.push(
      `${sym}${formatCents(p.localPerHourMicros)}/h at ${p.exchangeRate.usdPerUnit} USD/${p.localCurrency} (${p.exchangeRate.sourceDate})`,
    );
  }
  return parts.length > 0 ? parts.join("; ") : null;
}
