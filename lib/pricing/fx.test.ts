import { describe, expect, it } from "vitest";
import { convertMicros, parseRate, rateInForce } from "./fx.ts";
import { pricesInUsdAt } from "./convert-rows.ts";
import type { PriceRow } from "./types.ts";

const rate = (usdPerUnit: string, day: string) => ({
  currency: "CNY",
  usdPerUnit,
  effectiveFrom: new Date(`${day}T00:00:00Z`),
  source: "test",
  sourceDate: day,
});

describe("exchange rates", () => {
  it("parses rates exactly and refuses what is not a positive decimal", () => {
    expect(parseRate("0.13748728")).toEqual({ num: 13748728n, den: 100000000n });
    expect(parseRate("7")).toEqual({ num: 7n, den: 1n });
    for (const bad of ["0", "0.000", "-0.1", "1e-3", "", "0.1234567890123"]) {
      expect(() => parseRate(bad), bad).toThrow(RangeError);
    }
  });

  it("converts with one rounding, half away from zero", () => {
    expect(convertMicros(1n, "0.5")).toBe(1n); // 0.5 micro → 1
    expect(convertMicros(3n, "0.5")).toBe(2n); // 1.5 → 2
    expect(convertMicros(26_460_000n, "0.1405")).toBe(3_717_630n);
  });

  it("picks the latest rate not after the instant, per currency", () => {
    const rates = [rate("0.14", "2026-10-01"), rate("0.1375", "2026-11-01")];
    expect(rateInForce(rates, "cny", new Date("2026-10-31T23:59:59Z"))?.usdPerUnit).toBe("0.14");
    expect(rateInForce(rates, "CNY", new Date("2026-11-01T00:00:00Z"))?.usdPerUnit).toBe("0.1375");
    expect(rateInForce(rates, "CNY", new Date("2026-09-30T00:00:00Z"))).toBeNull();
    expect(rateInForce(rates, "EUR", new Date("2026-11-30T00:00:00Z"))).toBeNull();
  });

  it("converts rows once at an instant for recommendations", () => {
    const row = {
      currency: "CNY",
      localPerHourMicros: 10_000_000n,
      usdPerHourMicros: 1n,
      rates: [rate("0.14", "2026-10-01")],
      note: null,
    } as unknown as PriceRow;
    const [usd] = pricesInUsdAt([row], new Date("2026-11-01T00:00:00Z"));
    expect(usd).toMatchObject({ currency: "USD", usdPerHourMicros: 1_400_000n });
    const [kept] = pricesInUsdAt([row], new Date("2026-09-01T00:00:00Z"));
    expect(kept).toBe(row);
  });
});
