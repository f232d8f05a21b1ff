import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CENT_MICROS,
  roundPartsToTotal,
  roundSignedPartsToTotal,
  roundToUnit,
  sumMicros,
} from "./money.ts";

// Largest-remainder rounding of displayed rows (docs/architecture.md, "Domain rules").
// Fixed seed: the property runs are the same on every machine.
const SEED = 20261201;

const micros = fc.oneof(
  fc.bigInt({ min: 0n, max: 9_999n }), // tiny rows, under a cent
  fc.constantFrom(0n, 5_000n, 15_000n, 2_500n, 7_500n), // ties and half-cents
  fc.bigInt({ min: 0n, max: 10_000_000_000n }), // up to $10,000
);

describe("roundPartsToTotal (property)", () => {
  it("rounded rows sum to the total rounded once, each within one unit, deterministically", () => {
    fc.assert(
      fc.property(
        fc.array(micros, { maxLength: 200 }),
        fc.constantFrom(CENT_MICROS, 1_000_000n, 1n),
        (parts, unit) => {
          const rounded = roundPartsToTotal(parts, unit);
          expect(rounded).toHaveLength(parts.length);
          expect(sumMicros(rounded)).toBe(roundToUnit(sumMicros(parts), unit));
          rounded.forEach((r, i) => {
            const exact = parts[i] ?? 0n;
            expect(r % unit).toBe(0n);
            const diff = r > exact ? r - exact : exact - r;
            expect(diff < unit).toBe(true);
          });
          expect(roundPartsToTotal([...parts], unit)).toEqual(rounded);
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("many tiny rows: the total's cents go to the largest remainders", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 9_999n }), { minLength: 1, maxLength: 500 }),
        (parts) => {
          const rounded = roundPartsToTotal(parts);
          expect(sumMicros(rounded)).toBe(roundToUnit(sumMicros(parts)));
          // a row that got a cent never has a smaller remainder than one that did not
          const got = parts.filter((_, i) => rounded[i] === CENT_MICROS);
          const not = parts.filter((_, i) => rounded[i] === 0n);
          if (got.length && not.length) {
            const minGot = got.reduce((a, b) => (a < b ? a : b));
            expect(not.every((p) => p <= minGot)).toBe(true);
          }
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe("roundSignedPartsToTotal (property)", () => {
  it("credits and variances too: the rows sum to the total rounded once, each within one unit", () => {
    const signed = fc.oneof(
      micros,
      micros.map((m) => -m),
    );
    fc.assert(
      fc.property(fc.array(signed, { maxLength: 200 }), (parts) => {
        const rounded = roundSignedPartsToTotal(parts);
        expect(sumMicros(rounded)).toBe(roundToUnit(sumMicros(parts)));
        rounded.forEach((r, i) => {
          const exact = parts[i] ?? 0n;
          expect(r % CENT_MICROS).toBe(0n);
          expect((r > exact ? r - exact : exact - r) < CENT_MICROS).toBe(true);
        });
        // on non-negative parts it is roundPartsToTotal
        const plain = parts.map((p) => (p < 0n ? -p : p));
        expect(roundSignedPartsToTotal(plain)).toEqual(roundPartsToTotal(plain));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe("roundPartsToTotal (examples)", () => {
  it("breaks ties by order: three thirds of a cent-and-a-half", () => {
    // 3 × 0.005 = 0.015 → total 0.02; the two cents go to the first two rows
    expect(roundPartsToTotal([5_000n, 5_000n, 5_000n])).toEqual([10_000n, 10_000n, 0n]);
    // the largest remainder wins before order does
    expect(roundPartsToTotal([4_000n, 4_000n, 6_000n])).toEqual([0n, 0n, 10_000n]);
    expect(roundPartsToTotal([6_000n, 4_000n, 6_000n])).toEqual([10_000n, 0n, 10_000n]);
  });

  it("fixes the per-row drift: $0.333333 × 3 shows $0.33 + $0.33 + $0.34 = $1.00", () => {
    const parts = [333_333n, 333_333n, 333_334n];
    expect(roundPartsToTotal(parts)).toEqual([330_000n, 330_000n, 340_000n]);
    // rounding each row on its own gives $0.99 against a $1.00 total
    expect(sumMicros(parts.map((p) => roundToUnit(p)))).toBe(990_000n);
  });

  it("keeps exact cents and empty lists as they are", () => {
    expect(roundPartsToTotal([])).toEqual([]);
    expect(roundPartsToTotal([0n, 120_000n])).toEqual([0n, 120_000n]);
  });

  it("rounds the total half-up, like microsToCents", () => {
    expect(roundToUnit(5_000n)).toBe(10_000n);
    expect(roundToUnit(4_999n)).toBe(0n);
    expect(roundToUnit(-5_000n)).toBe(-10_000n);
    expect(roundPartsToTotal([2_500n, 2_500n])).toEqual([10_000n, 0n]);
  });

  it("refuses negative parts and a non-positive unit, naming the fault", () => {
    expect(() => roundPartsToTotal([1n, -2n])).toThrow(/negative part \(index 1: -2\)/);
    expect(() => roundPartsToTotal([1n], 0n)).toThrow(/unit must be positive/);
    expect(() => roundToUnit(1n, -1n)).toThrow(/unit must be positive/);
  });
});
