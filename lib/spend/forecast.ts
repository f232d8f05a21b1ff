import { DAY_MS } from "../core/time.ts";
import { monthBounds, monthBoundsAt } from "../core/months.ts";
import { mulDivRound } from "../core/money.ts";

// Month-end forecasts: the run-rate rule (budgets and the costs page) and the costs page's note.
// See docs/architecture.md, "Domain rules".

/** A forecast is shown only after this much data (OCI's rule). */
export const MIN_FORECAST_DAYS = 3;

export interface RunRateInput {
  /** Spend from the month's start (or from dataSince) up to `asOf`. */
  monthToDateMicros: bigint;
  /** End of the data the spend covers, e.g. the end of the last closed ledger hour. */
  asOf: Date;
  /** When data starts, for a fleet or budget that began mid-month; defaults to the month start. */
  dataSince?: Date;
}

export interface RunRate {
  /** the month containing asOf: [from, to), UTC, and its length in days */
  from: Date;
  to: Date;
  days: number;
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
export function runRateForecast(input: RunRateInput): RunRate {
  const bounds = monthBoundsAt(input.asOf);
  const from = Math.max(bounds.from.getTime(), input.dataSince?.getTime() ?? 0);
  const asOf = Math.min(input.asOf.getTime(), bounds.to.getTime());
  const elapsedMs = Math.max(0, asOf - from);
  const remainingMs = bounds.to.getTime() - asOf;
  const forecastMicros =
    elapsedMs < MIN_FORECAST_DAYS * DAY_MS
      ? null
      : input.monthToDateMicros +
        mulDivRound(input.monthToDateMicros, BigInt(remainingMs), BigInt(elapsedMs));
  return { ...bounds, elapsedSeconds: Math.floor(elapsedMs / 1000), forecastMicros };
}

export interface MonthForecastInput {
  month: string;
  totalMicros: bigint;
  /** first ledger hour of the month with data, and the end of the last one */
  dataFrom: Date | null;
  dataTo: Date | null;
  now: Date;
}

export interface MonthForecast {
  forecast: { micros: bigint; basisDays: number } | null;
  note: string;
}

/** The costs page's forecast for `month` as of `now`, with the note that explains it. */
export function monthForecast({
  month,
  totalMicros,
  dataFrom,
  dataTo,
  now,
}: MonthForecastInput): MonthForecast {
  const { from, to } = monthBounds(month);
  if (now.getTime() >= to.getTime()) {
    return { forecast: null, note: "The month has ended: the total is final." };
  }
  if (now.getTime() < from.getTime()) {
    return { forecast: null, note: "The month has not started." };
  }
  if (dataFrom === null || dataTo === null) {
    return { forecast: null, note: "No usage recorded this month yet, so no forecast." };
  }
  // the same run-rate rule the budget alerts use, so they always agree
  const f = runRateForecast({ monthToDateMicros: totalMicros, asOf: dataTo, dataSince: dataFrom });
  const basisDays = Math.round((f.elapsedSeconds / 86_400) * 10) / 10;
  if (f.forecastMicros === null) {
    return {
      forecast: null,
      note: `Forecast appears after ${MIN_FORECAST_DAYS} days of data (${basisDays.toFixed(1)} so far).`,
    };
  }
  return {
    forecast: { micros: f.forecastMicros, basisDays },
    note: `Month-to-date ÷ ${basisDays} days of data × days in month.`,
  };
}
