import { monthBounds, monthBoundsAt } from "../core/months.ts";
import { mulDivRound } from "../core/money.ts";
import { formatMoney } from "@/lib/format/money.ts";

// Month-end forecasts: the run-rate rule (budgets and the costs page) and the costs page's notes.
// See docs/architecture.md, "Domain rules".

/** A forecast is shown only after this much data (OCI's rule). */
export const MIN_FORECAST_DAYS = 3;
const DAY_S = 86_400;

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
  /** The data span the rate is measured over, clamped to the month, in whole seconds. */
  dataSince: Date;
  asOf: Date;
  /** Time the spend covers (asOf − dataSince) and time left (month end − asOf), in seconds. */
  elapsedSeconds: number;
  remainingSeconds: number;
  /** Projected spend for the whole month; null until MIN_FORECAST_DAYS of data exist. */
  forecastMicros: bigint | null;
}

/**
 * Month-end forecast: the rate over the data span (MTD ÷ elapsed) applied to the rest of the month,
 * i.e. MTD + MTD × remaining ÷ elapsed = MTD × (elapsed + remaining) ÷ elapsed. With data from the
 * month's start that is MTD ÷ elapsed × month length; with data starting mid-month, the time before
 * it counts as no spend. Whole seconds, exact integer arithmetic, half-up to the micro.
 */
export function runRateForecast(input: RunRateInput): RunRate {
  const bounds = monthBoundsAt(input.asOf);
  const sec = (ms: number) => Math.floor(ms / 1000);
  const from = Math.max(sec(bounds.from.getTime()), sec(input.dataSince?.getTime() ?? 0));
  const asOf = Math.min(sec(input.asOf.getTime()), sec(bounds.to.getTime()));
  const elapsedSeconds = Math.max(0, asOf - from);
  const remainingSeconds = sec(bounds.to.getTime()) - asOf;
  const forecastMicros =
    elapsedSeconds < MIN_FORECAST_DAYS * DAY_S
      ? null
      : input.monthToDateMicros +
        mulDivRound(input.monthToDateMicros, BigInt(remainingSeconds), BigInt(elapsedSeconds));
  return {
    ...bounds,
    dataSince: new Date(Math.min(from, asOf) * 1000),
    asOf: new Date(asOf * 1000),
    elapsedSeconds,
    remainingSeconds,
    forecastMicros,
  };
}

/** An exact span: "29 d 18 h", "3 d 30 min", "0 h". Never rounded, so a label re-computes. */
export function formatSpan(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 0) {
    throw new RangeError(`span must be a whole, non-negative number of seconds: ${seconds}`);
  }
  const d = Math.floor(seconds / DAY_S);
  const h = Math.floor((seconds % DAY_S) / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [
    [d, "d"],
    [h, "h"],
    [min, "min"],
    [s, "s"],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}`);
  return shown.length ? shown.join(" ") : "0 h";
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Oct 1 18:00 UTC" */
export function utcStamp(d: Date): string {
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${MONTHS[d.getUTCMonth()] ?? "?"} ${d.getUTCDate()} ${hh}:${mm} UTC`;
}

/**
 * Says when the month's ledger data starts after its first hour ("data from Oct 1 18:00 UTC") or,
 * once the month has ended, stops before its last ("data until Oct 30 12:00 UTC"); null otherwise.
 */
export function coverageNote(
  month: string,
  dataFrom: Date | null,
  dataTo: Date | null,
  ended: boolean,
): string | null {
  if (dataFrom === null || dataTo === null) return null;
  const { from, to } = monthBounds(month);
  const late = dataFrom.getTime() > from.getTime();
  const early = ended && dataTo.getTime() < to.getTime();
  if (late && early) return `data from ${utcStamp(dataFrom)} until ${utcStamp(dataTo)}`;
  if (late) return `data from ${utcStamp(dataFrom)}`;
  if (early) return `data until ${utcStamp(dataTo)}`;
  return null;
}

export interface MonthForecastInput {
  month: string;
  totalMicros: bigint;
  /** first ledger hour of the month with data, and the end of the last one */
  dataFrom: Date | null;
  dataTo: Date | null;
  now: Date;
  currency?: string;
}

export interface ForecastBasis {
  monthToDateMicros: bigint;
  dataFrom: Date;
  asOf: Date;
  dataSeconds: number;
  remainingSeconds: number;
  monthSeconds: number;
}

export interface MonthForecast {
  forecast: { micros: bigint; basisDays: number; basis: ForecastBasis } | null;
  /** the forecast's exact basis, or why there is none; for an ended month, whether it is final */
  note: string;
  coverageNote: string | null;
}

/** The costs page's forecast for `month` as of `now`, with the notes that explain it. */
export function monthForecast({
  month,
  totalMicros,
  dataFrom,
  dataTo,
  now,
  currency = "USD",
}: MonthForecastInput): MonthForecast {
  const { from, to } = monthBounds(month);
  const ended = now.getTime() >= to.getTime();
  const coverage = coverageNote(month, dataFrom, dataTo, ended);
  const result = (note: string, forecast: MonthForecast["forecast"] = null): MonthForecast => ({
    forecast,
    note,
    coverageNote: coverage,
  });
  if (ended) {
    if (dataFrom === null || dataTo === null) {
      return result("The month has ended with no usage recorded.");
    }
    return result(
      coverage === null
        ? "The month has ended: the total is final."
        : `The month has ended: the total covers only the hours the ledger has (${coverage}).`,
    );
  }
  if (now.getTime() < from.getTime()) return result("The month has not started.");
  if (dataFrom === null || dataTo === null) {
    return result("No usage recorded this month yet, so no forecast.");
  }
  // the same run-rate rule the budget alerts use, so they always agree
  const f = runRateForecast({ monthToDateMicros: totalMicros, asOf: dataTo, dataSince: dataFrom });
  const basisDays = Math.round((f.elapsedSeconds / DAY_S) * 10) / 10;
  if (f.forecastMicros === null) {
    return result(
      `Forecast appears after ${MIN_FORECAST_DAYS} days of data (${formatSpan(f.elapsedSeconds)} so far).`,
    );
  }
  const basis: ForecastBasis = {
    monthToDateMicros: totalMicros,
    dataFrom: f.dataSince,
    asOf: f.asOf,
    dataSeconds: f.elapsedSeconds,
    remainingSeconds: f.remainingSeconds,
    monthSeconds: Math.floor((f.to.getTime() - f.from.getTime()) / 1000),
  };
  return result(forecastLabel(basis, currency), {
    micros: f.forecastMicros,
    basisDays,
    basis,
  });
}

/**
 * The forecast's basis in words, from the very values the formula used: "Month-to-date $X over
 * 29 d 18 h of data × 30 d ÷ 29 d 18 h." With data starting mid-month it names the start and the
 * time left: "… over 10 d of data (from Nov 20 14:00 UTC; none before) × (10 d + 1 d 10 h to month
 * end) ÷ 10 d."
 */
export function forecastLabel(b: ForecastBasis, currency = "USD"): string {
  const mtd = formatMoney(b.monthToDateMicros, currency);
  const data = formatSpan(b.dataSeconds);
  if (b.dataSeconds + b.remainingSeconds === b.monthSeconds) {
    return `Month-to-date ${mtd} over ${data} of data × ${formatSpan(b.monthSeconds)} ÷ ${data}.`;
  }
  return (
    `Month-to-date ${mtd} over ${data} of data (from ${utcStamp(b.dataFrom)}; none before) ` +
    `× (${data} + ${formatSpan(b.remainingSeconds)} to month end) ÷ ${data}.`
  );
}
