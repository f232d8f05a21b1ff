import { describe, expect, it } from "vitest";
import {
  divRoundHalfUp,
  formatCents,
  formatMicros,
  microsToCents,
  mulDivRound,
  parseMicros,
  splitByWeights,
  splitEven,
  sumMicros,
} from "./money.ts";

describe("parseMicros", () => {
  it("converts decimal strings exactly", () => {
    expect(parseMicros("0.526")).toBe(526_000n);
    expect(parseMicros("32.7726")).toBe(32_772_600n);
    expect(parseMicros("98.32")).toBe(98_320_000n);
    expect(parseMicros("0.70683")).toBe(706_830n);
    expect(parseMicros("3")).toBe(3_000_000n);
    expect(parseMicros("-0.000001")).toBe(-1n);
    expect(parseMicros("1.1234560000")).toBe(1_123_456n);
  });

  it("is exact where float multiplication is not", () => {
    // 0.29 * 1e6 is 289999.99999999994 in floating point.
    expect(parseMicros("0.29")).toBe(290_000n);
    expect(parseMicros("4503599627.370496")).toBe(4_503_599_627_370_496n);
  });

  it("rejects what it cannot hold exactly", () => {
    expect(() => parseMicros("0.0000001")).toThrow(RangeError);
    expect(() => parseMicros("1e3")).toThrow(RangeError);
    expect(() => parseMicros("$1")).toThrow(RangeError);
    expect(() => parseMicros("")).toThrow(RangeError);
    expect(() => parseMicros("1.")).toThrow(RangeError);
  });
});

describe("formatting", () => {
  it("formats micros as six-place decimals", () => {
    expect(formatMicros(1_234_567_890n)).toBe("1234.567890");
    expect(formatMicros(0n)).toBe("0.000000");
    expect(formatMicros(-1n)).toBe("-0.000001");
    expect(formatMicros(parseMicros("32.7726"))).toBe("32.772600");
  });

  it("rounds to cents half away from zero", () => {
    expect(formatCents(1_234_567_890n)).toBe("1234.57");
    expect(formatCents(1_234_565_000n)).toBe("1234.57"); // exactly half: up
    expect(formatCents(1_234_564_999n)).toBe("1234.56");
    expect(formatCents(5_000n)).toBe("0.01");
    expect(formatCents(4_999n)).toBe("0.00");
    expect(formatCents(-5_000n)).toBe("-0.01");
    expect(formatCents(-4_999n)).toBe("0.00");
    expect(microsToCents(263_000n)).toBe(26n);
  });
});

describe("arithmetic", () => {
  it("sums bigints", () => {
    expect(sumMicros([])).toBe(0n);
    expect(sumMicros([1n, 2n, 3n])).toBe(6n);
  });

  it("divides with half-up rounding", () => {
    expect(divRoundHalfUp(7n, 2n)).toBe(4n);
    expect(divRoundHalfUp(5n, 3n)).toBe(2n);
    expect(divRoundHalfUp(4n, 3n)).toBe(1n);
    expect(divRoundHalfUp(-7n, 2n)).toBe(-4n);
    expect(() => divRoundHalfUp(1n, 0n)).toThrow(RangeError);
    // 32.7726 $/h for 7 s = 63,724.5 micros -> 63,725
    expect(mulDivRound(32_772_600n, 7n, 3600n)).toBe(63_725n);
  });
});

describe("splits", () => {
  it("splits evenly with the remainder on the first shares", () => {
    expect(splitEven(63_725n, 8)).toEqual([
      7_966n,
      7_966n,
      7_966n,
      7_966n,
      7_966n,
      7_965n,
      7_965n,
      7_965n,
    ]);
    expect(splitEven(10n, 3)).toEqual([4n, 3n, 3n]);
    expect(splitEven(0n, 0)).toEqual([]);
    expect(() => splitEven(1n, 0)).toThrow(RangeError);
  });

  it("splits by weights with the largest remainder and sums exactly", () => {
    // 100 by 1:1:1 -> 33.33 each, one extra micro to the first (ties go to the lower index)
    expect(splitByWeights(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    // 10 by 3:3:1 -> 4.28, 4.28, 1.43: floors 4,4,1 then the largest remainder (0.43) gets the micro
    expect(splitByWeights(10n, [3n, 3n, 1n])).toEqual([4n, 4n, 2n]);
    expect(splitByWeights(-10n, [3n, 3n, 1n])).toEqual([-4n, -4n, -2n]);
    expect(splitByWeights(5n, [0n, 1n])).toEqual([0n, 5n]);
    expect(() => splitByWeights(5n, [0n, 0n])).toThrow(RangeError);
    expect(() => splitByWeights(5n, [-1n, 2n])).toThrow(RangeError);
  });

  it("always reconciles", () => {
    for (const total of [0n, 1n, 999_999n, 32_772_600n, 123_456_789_012n]) {
      for (const weights of [[1n], [1n, 2n, 3n], [7n, 7n, 7n, 7n, 7n, 7n, 7n], [142_857n, 3n]]) {
        expect(sumMicros(splitByWeights(total, weights))).toBe(total);
      }
    }
  });
});
