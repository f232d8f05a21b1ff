// Money travels as integer micro-dollar strings; it is turned into a currency string only for display.
// Formatting goes through Intl with a decimal string, so no float sum ever touches the amount.
import { formatMicros, parseMicros } from "@/lib/core/money.ts";

/** "1234567" (micros) → "1.234567"; exact, always six decimals, sign kept. */
export function microsToDecimal(micros: bigint | string): string {
  return formatMicros(typeof micros === "bigint" ? micros : BigInt(micros));
}

/** "1.5" → 1500000n; exact (throws past six significant decimals). */
export const decimalToMicros = parseMicros;

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${currency}:${fractionDigits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(key, f);
  }
  return f;
}

/** Micro-dollars as currency, e.g. "$1,234.57". Small hourly rates keep more digits when asked. */
export function formatMoney(micros: bigint | string, currency = "USD", fractionDigits = 2): string {
  const decimal = microsToDecimal(micros) as Intl.StringNumericLiteral;
  return formatter(currency, fractionDigits).format(decimal);
}

/** A rate per hour: "$32.77/h". */
export function formatRate(micros: bigint | string, currency = "USD"): string {
  return `${formatMoney(micros, currency)}/h`;
}

/** Micros as a plain number of dollars, for chart geometry only (never for sums). */
export function microsToNumber(micros: bigint | string): number {
  const value = typeof micros === "bigint" ? micros : BigInt(micros);
  return Number(value) / 1_000_000;
}
