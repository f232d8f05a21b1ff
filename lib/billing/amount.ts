// Bill amounts are decimals with up to 10+ places (CUR writes 10) or, from Parquet, doubles. They
// are read exactly at 1e-12 of a unit and carried: each row's micros are the rounded running sum
// minus the rounded sum before it, so the rows' micros always add up to the file's exact total
// rounded once (never a drift of half a micro per row over millions of rows).

import { divRoundHalfUp } from "../core/money.ts";

const SCALE = 12;
const PICO_PER_MICRO = 1_000_000n;
const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal text or number as an exact count of 1e-12 units; null for an empty cell. */
export function parsePico(value: unknown): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return value * 10n ** BigInt(SCALE);
  const text = (typeof value === "number" ? numberText(value) : String(value))
    .trim()
    .replace(/,/g, "");
  if (text === "") return null;
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) {
    throw new RangeError(`not an amount: ${JSON.stringify(String(value).slice(0, 40))}`);
  }
  const [, sign, whole = "", fraction = "", exp = "0"] = m;
  const shift = SCALE + Number(exp);
  let digits = BigInt(`${whole || "0"}${fraction}`);
  let places = fraction.length - shift; // digits to drop (>0) or zeros to add (<0)
  if (places <= 0) digits *= 10n ** BigInt(-places);
  else {
    const div = 10n ** BigInt(places);
    const q = digits / div;
    digits = 2n * (digits % div) >= div ? q + 1n : q; // half away from zero (magnitude)
    places = 0;
  }
  return sign === "-" ? -digits : digits;
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${n}`);
  return Math.abs(n) >= 1e21 ? n.toExponential() : n.toFixed(SCALE);
}

const roundPicoToMicro = (pico: bigint): bigint => divRoundHalfUp(pico, PICO_PER_MICRO);

/** Carries the exact running sum of one money column across a file's rows. */
export class MicroCarry {
  private exact = 0n;
  private given = 0n;

  /** The next row's micros: this row's exact amount added, rounded in the running sum. */
  take(pico: bigint): bigint {
    this.exact += pico;
    const rounded = roundPicoToMicro(this.exact);
    const micros = rounded - this.given;
    this.given = rounded;
    return micros;
  }

  /** The exact total so far, rounded once to the micro. */
  totalMicros(): bigint {
    return roundPicoToMicro(this.exact);
  }
}

/** A single amount rounded to the micro (list costs, which are shown, never summed to a bill). */
export function picoToMicros(pico: bigint): bigint {
  return roundPicoToMicro(pico);
}
