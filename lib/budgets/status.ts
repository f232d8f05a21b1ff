import {
  formatSpan,
  forecastLabel,
  MIN_FORECAST_DAYS,
  runRateForecast,
} from "../spend/forecast.ts";
import type { BudgetStatus } from "../zod/schemas/budget.ts";

// A budget's month in figures: spend, share of the amount, forecast (after 3 days of data) and
// which thresholds actual and forecast spend have reached. Pure, exact (BigInt) comparisons.

export interface BudgetFigures {
  month: string;
  spendMicros: bigint;
  idleMicros: bigint;
  forecastMicros: bigint | null;
  pctActual: number;
  pctForecast: number | null;
  crossedActual: number | null;
  crossedForecast: number | null;
  dataTo: Date | null;
  forecastNote: string;
}

/** value ÷ amount in percent, rounded down to one decimal (so 79.99 % never shows as 80.0 %). */
export function percentOf(value: bigint, amount: bigint): number {
  if (amount <= 0n) return 0;
  return Number((value * 1000n) / amount) / 10;
}

/** The highest threshold t with value ≥ t % of amount, exactly; null when none is reached. */
export function crossedThreshold(
  value: bigint,
  amount: bigint,
  thresholds: readonly number[],
): number | null {
  let best: number | null = null;
  for (const t of thresholds) {
    if (!Number.isInteger(t) || t <= 0) continue;
    if (value * 100n >= amount * BigInt(t) && (best === null || t > best)) best = t;
  }
  return best;
}

export function monthKey(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
}

export function budgetFigures(input: {
  amountMicros: bigint;
  thresholds: readonly number[];
  spendMicros: bigint;
  idleMicros: bigint;
  /** first ledger hour of the month in scope, and the end of the last one */
  dataFrom: Date | null;
  dataTo: Date | null;
  now: Date;
}): BudgetFigures {
  const { amountMicros, thresholds, spendMicros, dataFrom, dataTo } = input;
  let forecastMicros: bigint | null = null;
  let forecastNote = "No usage recorded this month yet, so no forecast.";
  if (dataFrom && dataTo) {
    const f = runRateForecast({
      monthToDateMicros: spendMicros,
      asOf: dataTo,
      dataSince: dataFrom,
    });
    forecastMicros = f.forecastMicros;
    // the same label as the costs page, built from the numbers the forecast used
    forecastNote =
      forecastMicros === null
        ? `Forecast appears after ${MIN_FORECAST_DAYS} days of data (${formatSpan(f.elapsedSeconds)} so far).`
        : forecastLabel({
            monthToDateMicros: spendMicros,
            dataFrom: f.dataSince,
            asOf: f.asOf,
            dataSeconds: f.elapsedSeconds,
            remainingSeconds: f.remainingSeconds,
            monthSeconds: f.days * 86_400,
          });
  }
  return {
    month: monthKey(input.now),
    spendMicros,
    idleMicros: input.idleMicros,
    forecastMicros,
    pctActual: percentOf(spendMicros, amountMicros),
    pctForecast: forecastMicros === null ? null : percentOf(forecastMicros, amountMicros),
    crossedActual: crossedThreshold(spendMicros, amountMicros, thresholds),
    crossedForecast:
      forecastMicros === null ? null : crossedThreshold(forecastMicros, amountMicros, thresholds),
    dataTo,
    forecastNote,
  };
}

export function statusDto(f: BudgetFigures): BudgetStatus {
  return {
    month: f.month,
    spendMicros: f.spendMicros.toString(),
    idleMicros: f.idleMicros.toString(),
    pctActual: f.pctActual,
    forecastMicros: f.forecastMicros === null ? null : f.forecastMicros.toString(),
    pctForecast: f.pctForecast,
    crossedActual: f.crossedActual,
    crossedForecast: f.crossedForecast,
    dataTo: f.dataTo ? f.dataTo.toISOString() : null,
    forecastNote: f.forecastNote,
  };
}

export function parseThresholds(json: string): number[] {
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [50, 80, 100];
    const ts = v.filter((x): x is number => typeof x === "number" && Number.isInteger(x) && x > 0);
    return [...new Set(ts)].sort((a, b) => a - b);
  } catch {
    return [50, 80, 100];
  }
}
