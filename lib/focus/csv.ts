import { stringify } from "csv-stringify/sync";
import {
  COLUMN_NAMES,
  FOCUS_COLUMNS,
  formatDateTime,
  formatScaled,
  KIND_SCALE,
  type ColumnDef,
  type FocusRow,
} from "./columns.ts";

// FOCUS rows as CSV text that finance tools and spreadsheets take in unchanged: money and hours
// as plain decimals ("32.772000", never 3.2772E1 or "$32.77"), instants as
// "2026-11-01T00:00:00Z" (a spreadsheet keeps it text, where "2026-11" would become a date),
// JSON columns as compact JSON, null as an empty cell (FOCUS forbids empty strings for values).
// Text cells starting with = + - @ tab or CR get a leading ' (csv-stringify's escape_formulas)
// so a spreadsheet shows host names and labels instead of running them; no number or date here
// starts with one of those (costs and hours are never negative).

export type CellFormatter = (col: ColumnDef, value: FocusRow[keyof FocusRow]) => string;

/**
 * Formats cells; a chunk's rows share their instants and JSON objects (one per host), so each is
 * turned into text once per chunk.
 */
export function cellFormatter(): CellFormatter {
  const instants = new Map<number, string>();
  const objects = new WeakMap<object, string>();
  return (col, value) => {
    if (value === null) return "";
    switch (col.kind) {
      case "money":
      case "quantity":
        return formatScaled(value as bigint, KIND_SCALE[col.kind]);
      case "datetime": {
        const t = (value as Date).getTime();
        let text = instants.get(t);
        if (text === undefined) instants.set(t, (text = formatDateTime(value as Date)));
        return text;
      }
      case "json": {
        const obj = value as object;
        let text = objects.get(obj);
        if (text === undefined) objects.set(obj, (text = JSON.stringify(obj)));
        return text;
      }
      case "integer":
      case "double":
        return String(value as number);
      case "string":
        return value as string;
    }
  };
}

/** A run of rows as CSV lines, with the header line first when `header` is set. */
export function focusCsvChunk(rows: readonly FocusRow[], header: boolean): string {
  const cell = cellFormatter();
  return stringify(
    rows.map((row) => FOCUS_COLUMNS.map((col) => cell(col, row[col.name]))),
    {
      header,
      columns: [...COLUMN_NAMES],
      escape_formulas: true,
    },
  );
}

/** The whole CSV as a byte stream: the header, then each batch as it arrives. */
export async function* focusCsvStream(
  batches: AsyncIterable<readonly FocusRow[]>,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(focusCsvChunk([], true));
  for await (const rows of batches) {
    if (rows.length > 0) yield encoder.encode(focusCsvChunk(rows, false));
  }
}
