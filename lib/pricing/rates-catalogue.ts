// Shipped exchange rates (installed on every start like the price catalogue, same shipped/user
// rules: lib/pricing/rates.ts). The Federal Reserve quotes yuan per US dollar; a row stores the
// inverse (US dollars per yuan) rounded half-up to 8 decimals, so a 100 CNY/h price converts
// within 0.000001 USD of the exact quote. Monthly averages apply from the first day of their
// month (the "month's average rate" convention); a daily noon rate applies from its day.
import { divRoundHalfUp } from "../core/money.ts";
import type { ExchangeRateRow } from "./fx.ts";

const H10_MONTHLY =
  "Federal Reserve H.10/G.5, monthly average of daily noon buying rates, yuan per USD (FRED series EXCHUS, https://fred.stlouisfed.org/series/EXCHUS)";
const H10_DAILY =
  "Federal Reserve H.10 weekly release, daily noon buying rate, yuan per USD (https://www.federalreserve.gov/releases/h10/";

const PLACES = 8;

/** "7.2734" yuan per dollar → "0.13748728" dollars per yuan (half-up at 8 decimals), exactly. */
export function invertQuote(perUsd: string): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(perUsd);
  if (!m) throw new RangeError(`not a plain decimal quote: ${perUsd}`);
  const fraction = m[2] ?? "";
  const num = BigInt(`${m[1]}${fraction}`);
  const scaled = divRoundHalfUp(10n ** BigInt(fraction.length + PLACES), num);
  const digits = scaled.toString().padStart(PLACES + 1, "0");
  return `${digits.slice(0, -PLACES)}.${digits.slice(-PLACES)}`;
}

function monthly(month: string, perUsd: string, published: string): ExchangeRateRow {
  return {
    currency: "CNY",
    usdPerUnit: invertQuote(perUsd),
    effectiveFrom: new Date(`${month}-01T00:00:00Z`),
    source: `${H10_MONTHLY}: ${perUsd} CNY per USD for ${month}, as published ${published}`,
    sourceDate: month,
  };
}

function daily(day: string, perUsd: string, release: string): ExchangeRateRow {
  return {
    currency: "CNY",
    usdPerUnit: invertQuote(perUsd),
    effectiveFrom: new Date(`${day}T00:00:00Z`),
    source: `${H10_DAILY}${release.replaceAll("-", "")}): ${perUsd} CNY per USD on ${day}`,
    sourceDate: day,
  };
}

/** A daily rate read from the Data Download Program's CSV (the form `npm run rates:import` takes). */
function ddp(day: string, perUsd: string, citation: string): ExchangeRateRow {
  return {
    currency: "CNY",
    usdPerUnit: invertQuote(perUsd),
    effectiveFrom: new Date(`${day}T00:00:00Z`),
    source: `Federal Reserve H.10, series H10/H10/RXI_N.B.CH, noon buying rate, yuan per USD: ${perUsd} CNY per USD on ${day}; ${citation}`,
    sourceDate: day,
  };
}

// The newest rate shipped. A sourced monthly average for March 2025 to November 2026 was not to
// be had when this was written; finance loads the series itself from the Board's download (a
// daily or monthly H.10/G.5 CSV) with `npm run rates:import`, and those rows replace nothing
// shipped: a later date simply takes over from its day.
const DDP_2026_08 =
  "the Board's Data Download Program CSV (https://www.federalreserve.gov/datadownload/Output.aspx?filetype=csv&from=&label=include&lastobs=10&layout=seriescolumn&rel=H10&series=60f32914ab61dfab590e0e470153e3ae&to=&type=package), available 2026-08-24T20:15:09Z, as recorded with its SHA-256 in a public primary-source audit of that download";

export const SHIPPED_RATES: readonly ExchangeRateRow[] = [
  daily("2023-07-28", "7.1488", "2023-07-31"),
  daily("2024-01-12", "7.1665", "2024-01-16"),
  monthly("2024-10", "7.0881", "2025-03-03"),
  monthly("2024-11", "7.2063", "2025-03-03"),
  monthly("2024-12", "7.2807", "2025-03-03"),
  monthly("2025-01", "7.2957", "2025-03-03"),
  monthly("2025-02", "7.2734", "2025-03-03"),
  ddp("2026-08-21", "6.7210", DDP_2026_08),
];
