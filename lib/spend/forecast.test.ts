import { afterEach, describe, expect, it } from "vitest";
import { monthBoundsAt } from "../core/months.ts";
import { runRateForecast } from "./forecast.ts";

const d = (iso: string) => new Date(iso);
const savedTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = savedTz;
});

describe("monthBoundsAt", () => {
  it("uses UTC months whatever the server's zone", () => {
    process.env.TZ = "Pacific/Kiritimati"; // UTC+14: local time is already in December
    expect(monthBoundsAt(d("2026-11-30T23:30:00Z"))).toEqual({
      from: d("2026-11-01T00:00:00Z"),
      to: d("2026-12-01T00:00:00Z"),
      days: 30,
    });
    process.env.TZ = "America/Los_Angeles"; // local time is still in January
    expect(monthBoundsAt(d("2028-02-01T03:00:00Z"))).toEqual({
      from: d("2028-02-01T00:00:00Z"),
      to: d("2028-03-01T00:00:00Z"),
      days: 29,
    });
  });
});

describe("runRateForecast", () => {
  it("is null before 3 days of data", () => {
    const f = runRateForecast({ monthToDateMicros: 50_000_000n, asOf: d("2026-11-03T23:59:59Z") });
    expect(f.forecastMicros).toBeNull();
    expect(f.elapsedSeconds).toBe(3 * 86_400 - 1);
  });

  it("projects MTD ÷ elapsed × days in month from 3 days on", () => {
    // $30 in 3 of November's 30 days -> $300
    expect(
      runRateForecast({ monthToDateMicros: 30_000_000n, asOf: d("2026-11-04T00:00:00Z") })
        .forecastMicros,
    ).toBe(300_000_000n);
    // $100 in 10 days of a 31-day month -> $310
    expect(
      runRateForecast({ monthToDateMicros: 100_000_000n, asOf: d("2026-12-11T00:00:00Z") })
        .forecastMicros,
    ).toBe(310_000_000n);
    // leap February: $10 in 5 days of 29 -> $58
    expect(
      runRateForecast({ monthToDateMicros: 10_000_000n, asOf: d("2028-02-06T00:00:00Z") })
        .forecastMicros,
    ).toBe(58_000_000n);
  });

  it("rounds the projection half-up to the micro-dollar", () => {
    // 1 micro over 3 days of 31: 31 / 3 = 10.33 -> 10
    expect(
      runRateForecast({ monthToDateMicros: 1n, asOf: d("2026-12-04T00:00:00Z") }).forecastMicros,
    ).toBe(10n);
    // 1 micro over 3 days of 30... 12 h: 30 / 3.5 = 8.57 -> 9
    expect(
      runRateForecast({ monthToDateMicros: 1n, asOf: d("2026-11-04T12:00:00Z") }).forecastMicros,
    ).toBe(9n);
  });

  it("runs the rate over the rest of the month when data starts mid-month", () => {
    const dataSince = d("2026-11-20T00:00:00Z");
    // $50 over 5 days = $10/day; 6 days remain (25th-30th) -> $50 + $60
    const f = runRateForecast({
      monthToDateMicros: 50_000_000n,
      asOf: d("2026-11-25T00:00:00Z"),
      dataSince,
    });
    expect(f.forecastMicros).toBe(110_000_000n);
    const early = runRateForecast({
      monthToDateMicros: 1n,
      asOf: d("2026-11-22T00:00:00Z"),
      dataSince,
    });
    expect(early.forecastMicros).toBeNull();
  });
});
