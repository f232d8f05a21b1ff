// Prices converted once at one instant: for work that asks "what does this cost now" many times
// (recommendations), rows kept in another currency become USD rows at the rate in force at `at`.
// The ledger and re-pricing do not use this: they convert per hour through lookupPrice.
import { convertMicros, rateInForce } from "./fx.ts";
import type { PriceRow } from "./types.ts";

/** USD rows as they are; other rows converted at `at` (a row with no rate in force is kept as is,
 * so the lookup still says which rate is missing). */
export function pricesInUsdAt(rows: readonly PriceRow[], at: Date): PriceRow[] {
  return rows.map((r) => {
    if (r.currency.toUpperCase() === "USD") return r;
    const rate = rateInForce(r.rates ?? [], r.currency, at);
    if (!rate || r.localPerHourMicros == null) return r;
    return {
      ...r,
      usdPerHourMicros: convertMicros(r.localPerHourMicros, rate.usdPerUnit),
      currency: "USD",
      localPerHourMicros: null,
      rates: [],
      note: [r.note, `converted from ${r.currency} at ${rate.usdPerUnit} (${rate.sourceDate})`]
        .filter(Boolean)
        .join("; "),
    };
  });
}
