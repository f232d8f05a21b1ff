import { CENT_MICROS, roundToUnit, sumMicros } from "../core/money.ts";

// Displayed money adds up (docs/architecture.md, "Displayed money"): like roundPartsToTotal, but
// parts may be negative (credits, variances): each is floored to the cent, then the cents left to
// reach the total rounded once go to the largest remainders, ties to the lower index.

function floorTo(a: bigint, unit: bigint): bigint {
  const q = a / unit;
  return (a % unit !== 0n && a < 0n ? q - 1n : q) * unit;
}

export function roundSignedPartsToTotal(
  parts: readonly bigint[],
  unit: bigint = CENT_MICROS,
): bigint[] {
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
