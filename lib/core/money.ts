// Money is integer micro-dollars (1 USD = 1,000,000 micros) held in BigInt, so sums never drift.
// Conversions go through decimal strings, never through floating-point multiplication.

export const MICROS_PER_UNIT = 1_000_000n;
const FRACTION_DIGITS = 6;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Parses a plain decimal string ("32.7726", "-0.5", "3") into micros, exactly.
 * Digits past the sixth decimal are accepted only when they are zeros: a price that cannot be
 * held exactly is an error, not something to round silently.
 */
export function parseMicros(decimal: string): bigint {
  const match = DECIMAL.exec(decimal);
  if (!match) throw new RangeError(`not a plain decimal amount: ${JSON.stringify(decimal)}`);
  const [, sign, whole = "0", fraction = ""] = match;
  const kept = fraction.slice(0, FRACTION_DIGITS);
  if (/[^0]/.test(fraction.slice(FRACTION_DIGITS))) {
    throw new RangeError(`more than ${FRACTION_DIGITS} decimals in ${JSON.stringify(decimal)}`);
  }
  const micros = BigInt(whole) * MICROS_PER_UNIT + BigInt(kept.padEnd(FRACTION_DIGITS, "0"));
  return sign ? -micros : micros;
}

/** Formats micros as a plain decimal with all six places: 1234567890n -> "1234.567890". */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / MICROS_PER_UNIT;
  const fraction = (abs % MICROS_PER_UNIT).toString().padStart(FRACTION_DIGITS, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/**
 * Rounds micros to whole cents, half away from zero ("half-up" as on an invoice: 0.005 -> 0.01,
 * -0.005 -> -0.01). Chosen over banker's rounding because finance compares against provider
 * bills, which round this way, and one displayed figure must not flip between views.
 */
export function microsToCents(micros: bigint): bigint {
  return divRoundHalfUp(micros, 10_000n);
}

/** Formats micros as dollars with two decimals, rounded half away from zero: "1234.57". */
export function formatCents(micros: bigint): string {
  const cents = microsToCents(micros);
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? "-" : ""}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/** Sums bigint amounts; an empty list sums to 0n. */
export function sumMicros(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

/** a / b rounded half away from zero. b must not be zero. */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError("division by zero");
  const negative = a < 0n !== b < 0n;
  const absA = a < 0n ? -a : a;
  const absB = b < 0n ? -b : b;
  const q = absA / absB;
  const rounded = 2n * (absA % absB) >= absB ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** a × b / c rounded half away from zero, exactly (the product is never truncated first). */
export function mulDivRound(a: bigint, b: bigint, c: bigint): bigint {
  return divRoundHalfUp(a * b, c);
}

/**
 * Splits `total` into shares proportional to `weights` that sum exactly to `total`, by the
 * largest-remainder method. Ties go to the lower index, so the same input always gives the same
 * split. Weights are non-negative integers (scale fractions up before calling).
 */
export function splitByWeights(total: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) {
    if (total !== 0n) throw new RangeError("cannot split a non-zero amount into no shares");
    return [];
  }
  if (weights.some((w) => w < 0n)) throw new RangeError("weights must be non-negative");
  const weightSum = sumMicros(weights);
  if (weightSum === 0n) throw new RangeError("weights must not all be zero");
  // Split the magnitude and restore the sign, so negative totals (credits) split symmetrically.
  const negative = total < 0n;
  const abs = negative ? -total : total;
  const shares = weights.map((w) => (abs * w) / weightSum);
  const remainders = weights.map((w, i) => ({ i, r: (abs * w) % weightSum }));
  let left = abs - sumMicros(shares);
  remainders.sort((x, y) => (x.r === y.r ? x.i - y.i : x.r > y.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    shares[i] = (shares[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return negative ? shares.map((s) => -s) : shares;
}

/** Splits `total` into `n` near-equal shares that sum exactly to it; earlier shares get the extra micros. */
export function splitEven(total: bigint, n: number): bigint[] {
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`share count must be a whole number: ${n}`);
  return splitByWeights(
    total,
    Array.from({ length: n }, () => 1n),
  );
}

/** One cent in micros: the unit displayed money is rounded to. */
export const CENT_MICROS = 10_000n;

/** `micros` rounded to a multiple of `unit`, half away from zero (the rule `microsToCents` uses). */
export function roundToUnit(micros: bigint, unit: bigint = CENT_MICROS): bigint {
  if (unit <= 0n) throw new RangeError(`rounding unit must be positive: ${unit}`);
  return divRoundHalfUp(micros, unit) * unit;
}

/**
 * Rounds each part to a multiple of `unit` so the rounded parts sum exactly to the total rounded
 * once (`roundToUnit(sum)`), by the largest-remainder method: every part is floored, then the units
 * left go to the largest remainders, ties to the lower index (deterministic). Each part moves by
 * less than one unit. Parts must be non-negative (ledger costs are): a negative one is an error.
 */
export function roundPartsToTotal(parts: readonly bigint[], unit: bigint = CENT_MICROS): bigint[] {
  const bad = parts.findIndex((p) => p < 0n);
  if (bad >= 0) throw new RangeError(`cannot round a negative part (index ${bad}: ${parts[bad]})`);
  return roundSignedPartsToTotal(parts, unit);
}

/** `a` floored (toward minus infinity) to a multiple of `unit`. */
function floorTo(a: bigint, unit: bigint): bigint {
  const q = a / unit;
  return (a % unit !== 0n && a < 0n ? q - 1n : q) * unit;
}

/**
 * roundPartsToTotal for parts that may be negative (credits, variances on a bill): each is floored
 * toward minus infinity, then the units left to reach the total rounded once go to the largest
 * remainders, ties to the lower index.
 */
export function roundSignedPartsToTotal(
  parts: readonly bigint[],
  unit: bigint = CENT_MICROS,
): bigint[] {
  if (unit <= 0n) throw new RangeError(`rounding unit must be positive: ${unit}`);
  const floors = parts.map((p) => floorTo(p, unit));
  let left = (roundToUnit(sumMicros(parts), unit) - sumMicros(floors)) / unit;
  const order = parts
    .map((p, i) => ({ i, r: p - (floors[i] ?? 0n) }))
    .filter((x) => x.r > 0n)
    .sort((x, y) => (x.r === y.r ? x.i - y.i : x.r > y.r ? -1 : 1));
  for (const { i } of order) {
    if (left <= 0n) break;
    floors[i] = (floors[i] ?? 0n) + unit;
    left -= 1n;
  }
  return floors;
}
