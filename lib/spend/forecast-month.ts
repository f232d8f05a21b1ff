import { forecastMonth as runRate, MIN_FORECAST_DAYS } from "@/lib/spend/forecast.ts";
import { monthBounds } from "../core/months.ts";

// DESIGN.md: forecast = month-to-date ÷ elapsed × days in month, shown only after 3 days of data.

export interface ForecastInput {
  month: string;
  totalMicros: bigint;
  /** first ledger hour of the month with data, and the end of the last one */
  dataFrom: Date | null;
  dataTo: Date | null;
  now: Date;
}

export interface ForecastResult {
  forecast: { micros: bigint; basisDays: number } | null;
  note: string;
}

export function forecastMonth({
  month,
  totalMicros,
  dataFrom,
  dataTo,
  now,
}: ForecastInput): ForecastResult {
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
  // The same run-rate rule the budget alerts use (lib/spend/forecast.ts), so they always agree.
  const f = runRate({ monthToDateMicros: totalMicros, asOf: dataTo, dataSince: dataFrom });
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
