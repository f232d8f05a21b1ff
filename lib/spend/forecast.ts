import { DAY_MS } from "../core/time.ts";
import { utc } from "@date-fns/utc";
import { addMonths, getDaysInMonth, startOfMonth } from "date-fns";
import { mulDivRound } from "../core/money.ts";

/** A forecast is shown only after this much data (OCI's rule, DESIGN.md). */
export const MIN_FORECAST_DAYS = 3;

export interface MonthBounds {
  /** First instant of the month, UTC. */
  start: Date;
  /** First instant of the next month, UTC (exclusive end). */
  end: Date;
  days: number;
}

/** The UTC calendar month containing `at`. */
export function monthBounds(at: Date): MonthBounds {
  const start = startOfMonth(at, { in: utc });
  return {
    start: new Date(start.getTime()),
    end: new Date(addMonths(start, 1, { in: utc }).getTime()),
    days: getDaysInMonth(at, { in: utc }),
  };
}

export interface ForecastInput {
  /** Spend from the month's start (or from dataSince) up to `asOf`. */
  monthToDateMicros: bigint;
  /** End of the data the spend covers, e.g. the end of the last closed ledger hour. */
  asOf: Date;
  /** When data starts, for a fleet or budget that began mid-month; defaults to the month start. */
  dataSince?: Date;
}

export interface Forecast extends MonthBounds {
  /** Time the spend covers, in seconds. */
  elapsedSeconds: number;
  /** Projected spend for the whole month; null until MIN_FORECAST_DAYS of data exist. */
  forecastMicros: bigint | null;
}

/**
 * Month-end forecast = MTD ÷ elapsed × days in month (run-rate). When data starts mid-month the
 * run-rate is applied to the rest of the month only (MTD + rate × remaining), which reduces to the
 * same formula when data covers the whole month so far. Exact integer arithmetic, half-up.
 */
export function forecastMonth(input: ForecastInput): Forecast {
  const bounds = monthBounds(input.asOf);
  const from = Math.max(bounds.start.getTime(), input.dataSince?.getTime() ?? 0);
  const asOf = Math.min(input.asOf.getTime(), bounds.end.getTime());
  const elapsedMs = Math.max(0, asOf - from);
  const remainingMs = bounds.end.getTime() - asOf;
  const forecastMicros =
    elapsedMs < MIN_FORECAST_DAYS * DAY_MS
      ? null
      : input.monthToDateMicros +
        mulDivRound(input.monthToDateMicros, BigInt(remainingMs), BigInt(elapsedMs));
  return { ...bounds, elapsedSeconds: Math.floor(elapsedMs / 1000), forecastMicros };
}
