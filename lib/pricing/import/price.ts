import { divRoundHalfUp, formatMicros, parseMicros } from "../../core/money.ts";

// Published prices carry up to ten decimals ("21.9576420000", GCP's nanos); the store keeps
// micro-dollars. Digits past the sixth are rounded half up and the row's note says so, so a
// rounding is never silent (money.ts refuses them outright for hand-typed prices).

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export interface Micros {
  micros: bigint;
  /** set when sub-micro digits were rounded away: "rounded from 0.12345678 USD" */
  rounded: string | null;
}

/** A non-negative plain decimal ("0.5260000000", "98.32") in micros; null when it is not one. */
export function decimalToMicros(text: string): Micros | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const [, whole = "0", fraction = ""] = m;
  const extra = fraction.slice(6);
  if (!/[^0]/.test(extra))
    return { micros: parseMicros(`${whole}.${fraction.slice(0, 6) || "0"}`), rounded: null };
  // 18 decimals, then down to 6: exact for anything a price list prints
  const scaled = `${whole}${fraction.padEnd(18, "0").slice(0, 18)}`;
  const micros = divRoundHalfUp(BigInt(scaled), 10n ** 12n);
  return { micros, rounded: `rounded from ${whole}.${fraction.replace(/0+$/, "")} USD` };
}

/** GCP's Money {units, nanos} in nano-dollars, exactly. */
export function moneyToNanos(units: string, nanos: number): bigint | null {
  if (!/^\d+$/.test(units) || !Number.isInteger(nanos) || nanos < 0 || nanos >= 1e9) return null;
  return BigInt(units) * 1_000_000_000n + BigInt(nanos);
}

/** Nano-dollars to micros, rounded half up; the note says when that changed anything. */
export function nanosToMicros(nanos: bigint): Micros {
  const micros = divRoundHalfUp(nanos, 1000n);
  const rounded =
    micros * 1000n === nanos ? null : `rounded from ${formatNanos(nanos)} USD to micro-dollars`;
  return { micros, rounded };
}

/** 3673385000n -> "3.673385"; trailing zeros dropped, at least one decimal kept. */
export function formatNanos(nanos: bigint): string {
  const whole = nanos / 1_000_000_000n;
  const fraction = (nanos % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${whole}.${fraction || "0"}`;
}

/** "32.772600" -> "32.7726": a price for messages and notes. */
export function shortUsd(micros: bigint): string {
  return formatMicros(micros).replace(/\.?0+$/, "");
}
