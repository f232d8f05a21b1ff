// What a page says beside a host's price: "fallback (no eu-west-1 price)" when the "*" row priced
// it, "¥11.63/h at 0.13748728 USD/CNY (2025-02)" when it was converted from another currency, and
// "spot market price in us-east-1b (2026-11-15 11:00 UTC)" when the spot price history priced it.
import { formatCents } from "../core/money.ts";
import { priceRegionNote, type PricedLookup } from "./lookup.ts";

const SYMBOL: Record<string, string> = { CNY: "¥" };

export function priceNoteOf(p: PricedLookup, hostRegion: string): string | null {
  const parts: string[] = [];
  const fallback = priceRegionNote(p.region, hostRegion);
  if (fallback) parts.push(fallback);
  if (p.spotMarket) {
    const since = `${p.effectiveFrom.toISOString().slice(0, 16).replace("T", " ")} UTC`;
    const { where, zones } = p.spotMarket;
    parts.push(
      zones > 1
        ? `spot market price in ${where} (mean of ${zones} zones, ${since})`
        : `spot market price in ${where} (${since})`,
    );
  }
  if (p.exchangeRate && p.localCurrency && p.localPerHourMicros != null) {
    const sym = SYMBOL[p.localCurrency] ?? `${p.localCurrency} `;
    parts.push(
      `${sym}${formatCents(p.localPerHourMicros)}/h at ${p.exchangeRate.usdPerUnit} USD/${p.localCurrency} (${p.exchangeRate.sourceDate})`,
    );
  }
  return parts.length > 0 ? parts.join("; ") : null;
}
