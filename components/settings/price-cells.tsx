// Cells of the settings price table that need more than the row: a price kept in CNY shown in CNY
// with its conversion at the rate in force now ("¥11.63/h (≈ $1.60 at 0.13748728 of 2025-02)"),
// the "*" region said to be the fallback, and a "stale" mark on a price read over 90 days ago.
import { formatCents, parseMicros } from "@/lib/core/money.ts";
import { convertMicros, rateInForce, type ExchangeRateRow } from "@/lib/pricing/fx.ts";
import { ageInDays, isStale, STALE_AFTER_DAYS } from "@/lib/pricing/stale.ts";
import type { PricingRowDto } from "@/lib/zod/schemas/pricing.ts";

const SYMBOL: Record<string, string> = { CNY: "¥", USD: "$" };

/**
 * "¥11.63/h (≈ $1.60 at 0.13748728 of 2025-02)"; null for a USD row. `rates` null: not loaded
 * yet, so the local price alone.
 */
export function convertedPriceText(
  row: Pick<PricingRowDto, "currency" | "localPerHour">,
  rates: readonly ExchangeRateRow[] | null,
  now: Date,
): string | null {
  if (row.currency === "USD" || !row.localPerHour) return null;
  const local = parseMicros(row.localPerHour);
  const symbol = SYMBOL[row.currency] ?? `${row.currency} `;
  const localText = `${symbol}${formatCents(local)}/h`;
  if (rates === null) return localText;
  const rate = rateInForce(rates, row.currency, now);
  if (!rate) return `${localText} (no ${row.currency} exchange rate in force: unpriced)`;
  const usd = convertMicros(local, rate.usdPerUnit);
  return `${localText} (≈ $${formatCents(usd)} at ${rate.usdPerUnit} of ${rate.sourceDate})`;
}

export function RegionCell({ region }: { region: string }) {
  if (region !== "*") return <>{region}</>;
  return (
    <span className="muted" title="applies to every region without a row of its own">
      any region (fallback)
    </span>
  );
}

export function StaleMark({ sourceDate, now }: { sourceDate: string; now: Date }) {
  if (!isStale(sourceDate, now)) return null;
  const days = ageInDays(sourceDate, now);
  return (
    <span
      className="badge warning"
      data-testid="price-stale"
      title={`read ${days ?? "an unknown number of"} days ago: more than ${STALE_AFTER_DAYS} days, check the source for a newer figure`}
    >
      stale
    </span>
  );
}
