// The Federal Reserve's H.10 (daily) and G.5 (monthly) exchange rates as the Board's Data Download
// Program writes them (https://www.federalreserve.gov/datadownload/Choose.aspx?rel=H10, CSV, labels
// included, "series column" layout): six header lines, then one line per date.
//
//   "Series Description","China -- Spot Exchange Rate, Yuan/US$"
//   "Unit:","Currency:_Per_USD"
//   "Multiplier:","1"
//   "Currency:","CNY"
//   "Unique Identifier: ","H10/H10/RXI_N.B.CH"
//   "Time Period","RXI_N.B.CH"
//   2026-08-21,6.7210
//   2026-08-24,ND
//
// A series RXI_N.<freq>.<country> quotes units of the currency per US dollar (yuan per dollar):
// stored inverted, as the shipped rates are (rates-catalogue.ts); RXI$US_N.<freq>.<country> quotes
// US dollars per unit (euro, pound) and is stored as it is. <freq> is B (business days: each rate
// applies from its day) or M (monthly averages: each applies from the first of its month), the
// convention the shipped table follows. "ND" (no data: a holiday) is skipped. A file with any bad
// line is refused whole, every bad line named; nothing of it is imported.
import { parse } from "csv-parse/sync";
import { exchangeRateInputSchema } from "../zod/schemas/exchange-rate.ts";
import type { ExchangeRateRow } from "./fx.ts";
import { invertQuote } from "./rates-catalogue.ts";

const HEADER_LABELS = [
  "Series Description",
  "Unit:",
  "Multiplier:",
  "Currency:",
  "Unique Identifier:",
  "Time Period",
] as const;
const SERIES = /^H10\/H10\/RXI(\$US)?_N\.(B|M)\.([A-Z]{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const VALUE = /^\d{1,6}(\.\d{1,12})?$/;
const MAX_ERRORS = 20;

export const H10_SOURCE =
  "Federal Reserve Board, H.10/G.5 Foreign Exchange Rates, Data Download Program (https://www.federalreserve.gov/datadownload/Choose.aspx?rel=H10)";

export class H10FormatError extends Error {
  constructor(
    readonly problems: readonly string[],
    readonly file: string,
  ) {
    super(`${file}: ${problems.join("; ")}`);
    this.name = "H10FormatError";
  }
}

interface Column {
  series: string;
  currency: string;
  usdPerUnit: boolean;
  monthly: boolean;
  description: string;
}

export interface H10Parsed {
  rows: ExchangeRateRow[];
  /** per series: how many dates it had and how many of them were "ND" (no rate that day) */
  series: { series: string; currency: string; rates: number; noData: number }[];
}

function columnsOf(header: string[][], errors: string[]): Column[] {
  const [desc, , mult, cur, ids] = header;
  const width = (desc?.length ?? 0) - 1;
  const cols: Column[] = [];
  for (let i = 1; i <= width; i++) {
    const id = (ids?.[i] ?? "").trim();
    const m = SERIES.exec(id);
    if (!m) {
      errors.push(
        `line 5, column ${i + 1}: "${id}" is not an H.10 exchange-rate series (H10/H10/RXI_N.B.CH or RXI$US_N.M.EU style)`,
      );
      continue;
    }
    if ((mult?.[i] ?? "").trim() !== "1") {
      errors.push(
        `line 3, column ${i + 1}: multiplier "${mult?.[i] ?? ""}" for ${id}: only 1 is understood`,
      );
    }
    const currency = (cur?.[i] ?? "").trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency) || currency === "USD") {
      errors.push(`line 4, column ${i + 1}: "${cur?.[i] ?? ""}" is not a currency code`);
    }
    cols.push({
      series: id.slice("H10/H10/".length),
      currency,
      usdPerUnit: m[1] === "$US",
      monthly: m[2] === "M",
      description: (desc?.[i] ?? "").trim(),
    });
  }
  return cols;
}

function periodOf(text: string, monthly: boolean): { from: Date; sourceDate: string } | null {
  const m = DAY.exec(text) ?? (monthly ? MONTH.exec(text) : null);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d)
    return null;
  if (monthly) {
    const first = new Date(Date.UTC(y, mo - 1, 1));
    return { from: first, sourceDate: first.toISOString().slice(0, 7) };
  }
  return { from: at, sourceDate: at.toISOString().slice(0, 10) };
}

/** Parses one Data Download Program CSV; throws H10FormatError naming every bad line (up to 20). */
export function parseH10Csv(text: string, file: string): H10Parsed {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // with `info`, csv-parse answers { record, info } per line (its typings say plain records)
    records = parse(text.replace(/^\uFEFF/, ""), {
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (e) {
    throw new H10FormatError(
      [`not a CSV file: ${e instanceof Error ? e.message : String(e)}`],
      file,
    );
  }
  const errors: string[] = [];
  const header = records.slice(0, HEADER_LABELS.length);
  HEADER_LABELS.forEach((label, i) => {
    const got = (header[i]?.record[0] ?? "").trim();
    if (got !== label) {
      errors.push(
        `line ${header[i]?.info.lines ?? i + 1}: expected "${label}", found "${got}" (download the CSV with labels included, series in columns)`,
      );
    }
  });
  if (errors.length > 0) throw new H10FormatError(errors, file);
  const cols = columnsOf(
    header.map((h) => h.record),
    errors,
  );
  if (cols.length === 0 && errors.length === 0) errors.push("line 1: no series in the file");
  if (errors.length > 0) throw new H10FormatError(errors, file);

  const rows: ExchangeRateRow[] = [];
  const stats = cols.map((c) => ({ series: c.series, currency: c.currency, rates: 0, noData: 0 }));
  const seen = new Set<string>();
  for (const { record, info } of records.slice(HEADER_LABELS.length)) {
    if (errors.length >= MAX_ERRORS) break;
    const line = info.lines;
    if (record.length !== cols.length + 1) {
      errors.push(`line ${line}: ${record.length} fields, expected ${cols.length + 1}`);
      continue;
    }
    const period = record[0] ?? "";
    cols.forEach((c, i) => {
      const stat = stats[i] ?? { rates: 0, noData: 0 };
      const p = periodOf(period, c.monthly);
      if (!p) {
        if (i === 0) {
          errors.push(
            `line ${line}: "${period}" is not a ${c.monthly ? "month (YYYY-MM)" : "date (YYYY-MM-DD)"}`,
          );
        }
        return;
      }
      const raw = (record[i + 1] ?? "").trim();
      if (raw === "ND" || raw === "") {
        stat.noData++;
        return;
      }
      if (!VALUE.test(raw) || Number(raw) <= 0) {
        errors.push(`line ${line}, ${c.series}: "${raw}" is not a rate (a positive decimal or ND)`);
        return;
      }
      const key = `${c.currency}|${p.from.toISOString()}`;
      if (seen.has(key)) {
        errors.push(`line ${line}: a second ${c.currency} rate for ${p.sourceDate}`);
        return;
      }
      seen.add(key);
      const usdPerUnit = c.usdPerUnit ? raw : invertQuote(raw);
      const quote = c.usdPerUnit ? `${raw} USD per ${c.currency}` : `${raw} ${c.currency} per USD`;
      const input = exchangeRateInputSchema.safeParse({
        currency: c.currency,
        usdPerUnit,
        effectiveFrom: p.from.toISOString().slice(0, 10),
        source:
          `${H10_SOURCE}, series ${c.series} (${c.description}): ${quote} ${c.monthly ? "average for" : "on"} ${p.sourceDate}, from ${file}`.slice(
            0,
            500,
          ),
        sourceDate: p.sourceDate,
      });
      if (!input.success) {
        const why = input.error.issues.map((x) => x.message).join(", ");
        errors.push(`line ${line}, ${c.series}: ${why}`);
        return;
      }
      stat.rates++;
      rows.push(input.data);
    });
  }
  if (errors.length >= MAX_ERRORS) errors.push(`stopped after ${MAX_ERRORS} problems`);
  if (errors.length > 0) throw new H10FormatError(errors, file);
  if (rows.length === 0) throw new H10FormatError(["no rates in the file (every date ND)"], file);
  return { rows, series: stats };
}
