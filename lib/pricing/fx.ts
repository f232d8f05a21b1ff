// Exchange rates for prices kept in another currency (CNY). A rate says how many US dollars one
// unit of the currency was worth from its effectiveFrom on, until the next row of that currency.
// Conversion is exact: micro-units × usdPerUnit, as a fraction of integers, rounded once, half
// away from zero, to the micro-dollar (`mulDivRound`). No floating point anywhere.
import { mulDivRound } from "../core/money.ts";

export interface ExchangeRateRow {
  currency: string;
  /** US dollars per one unit of `currency`, an exact decimal string, e.g. "0.13748728" */
  usdPerUnit: string;
  effectiveFrom: Date;
  source: string;
  sourceDate: string;
}

const RATE = /^(\d{1,6})(?:\.(\d{1,12}))?$/;

/** "0.1375" → 1375/10000, exactly; a rate that is not a plain positive decimal is an error. */
export function parseRate(usdPerUnit: string): { num: bigint; den: bigint } {
  const m = RATE.exec(usdPerUnit.trim());
  if (!m) throw new RangeError(`not a plain decimal rate: ${JSON.stringify(usdPerUnit)}`);
  const [, whole = "0", fraction = ""] = m;
  const den = 10n ** BigInt(fraction.length);
  const num = BigInt(whole) * den + BigInt(fraction || "0");
  if (num <= 0n) throw new RangeError("a rate must be more than 0");
  return { num, den };
}

/** Local micro-units → micro-dollars at `usdPerUnit`, rounded once, half away from zero. */
export function convertMicros(localMicros: bigint, usdPerUnit: string): bigint {
  const { num, den } = parseRate(usdPerUnit);
  return mulDivRound(localMicros, num, den);
}

/** The rate of `currency` in force at `at` (the latest effectiveFrom not after it), or null. */
export function rateInForce(
  rates: readonly ExchangeRateRow[],
  currency: string,
  at: Date,
): ExchangeRateRow | null {
  let best: ExchangeRateRow | null = null;
  const cur = currency.toUpperCase();
  for (const r of rates) {
    if (r.currency.toUpperCase() !== cur || r.effectiveFrom.getTime() > at.getTime()) continue;
    if (!best || r.effectiveFrom.getTime() > best.effectiveFrom.getTime()) best = r;
  }
  return best;
}

/** "1 CNY = $0.1375 (2025-02)": how the pages name the rate a converted figure used. */
export function rateLabel(r: Pick<ExchangeRateRow, "currency" | "usdPerUnit" | "sourceDate">) {
  return `1 ${r.currency} = $${r.usdPerUnit} (${r.sourceDate})`;
}
