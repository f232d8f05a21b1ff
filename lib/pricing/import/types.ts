import { InvalidInputError } from "../../core/errors.ts";
import type { PriceRow, PricingModel } from "../types.ts";

// Shared shapes of the price-list importers: every parser turns one provider's published file
// into ImportRows plus counts of what it left out; apply.ts writes them. Nothing here touches the
// store, so parsers are pure over their input stream.

export const IMPORT_PROVIDERS = ["aws", "azure", "gcp", "alibaba", "tencent"] as const;
export type ImportProvider = (typeof IMPORT_PROVIDERS)[number];

/** A file's bytes as they arrive: a read stream, or one chunk for an upload already in memory. */
export type ImportSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

export interface ImportFile {
  /** the file's name as given (no directories): shown in messages and in updatedBy */
  name: string;
  source: ImportSource;
}

/**
 * The longest CSV record (line) an importer reads: an AWS offer row is about 2,000 characters, a
 * template row 300. A longer one is refused as it streams, before it is held whole.
 */
export const MAX_CSV_RECORD_CHARS = 64 * 1024;

/** csv-parse's error (or ours, passed through) as the 400 naming the line. */
export function csvError(file: string, e: unknown): ImportFormatError {
  if (e instanceof ImportFormatError) return e;
  const { lines, code } = e as { lines?: number; code?: string };
  const at = lines ? `line ${lines}` : "";
  if (code === "CSV_MAX_RECORD_SIZE") {
    return new ImportFormatError(
      file,
      at,
      `a line longer than ${MAX_CSV_RECORD_CHARS} characters: not a price list`,
    );
  }
  const why = e instanceof Error ? e.message : String(e);
  return new ImportFormatError(file, at, `not valid CSV (${why})`);
}

/** A price as it will be stored, plus where in which file it came from. */
export interface ImportRow extends PriceRow {
  pricingModel: PricingModel;
  /** "file.json line 120" or "file.csv line 8": for duplicate and conflict messages */
  where: string;
  file: string;
}

export interface ParsedImport {
  rows: ImportRow[];
  /** products, items or SKUs left out because they are not a GPU instance we can price */
  skippedNonGpu: number;
  /** every reason something was left out, with how often: shown by the CLI and the panel */
  skipped: Record<string, number>;
  /** what the files say about themselves: "AmazonEC2 version 20260910195514 (2026-09-10)" */
  describes: string[];
}

/** Options a caller gives where the file itself does not say (Azure and GCP pages carry no date). */
export interface ParseOptions {
  /** the day or month the file was downloaded or published, YYYY-MM-DD or YYYY-MM */
  sourceDate?: string;
  /** where the file came from; a default per format names the public API */
  sourceUrl?: string;
}

/**
 * A file that cannot be imported as it is: bad JSON or CSV, a missing key or column, a price that
 * is not a number. The message names the file and the line or key at fault; nothing is written.
 */
export class ImportFormatError extends InvalidInputError {
  constructor(file: string, where: string, message: string) {
    super(`${file}: ${where ? `${where}: ` : ""}${message}`, [{ path: where, message }]);
    this.name = "ImportFormatError";
  }
}

/** Counts one skipped thing under its reason. */
export function skip(into: Record<string, number>, reason: string): void {
  into[reason] = (into[reason] ?? 0) + 1;
}

export function emptyParsed(): ParsedImport {
  return { rows: [], skippedNonGpu: 0, skipped: {}, describes: [] };
}

/** Adds a file's result to the running total (several Azure pages, several GCP catalog pages). */
export function mergeParsed(into: ParsedImport, more: ParsedImport): ParsedImport {
  // one at a time: spreading a large file's rows into push() overflows the call stack
  for (const r of more.rows) into.rows.push(r);
  into.skippedNonGpu += more.skippedNonGpu;
  for (const [reason, n] of Object.entries(more.skipped)) {
    into.skipped[reason] = (into.skipped[reason] ?? 0) + n;
  }
  for (const d of more.describes) into.describes.push(d);
  return into;
}
