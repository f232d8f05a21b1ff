import type { InvalidInputError } from "../../core/errors.ts";
import type { ImportProvider, ImportRow, ParsedImport, ParseOptions } from "./types.ts";

// What the request thread and the parse worker (parse-off-thread.ts, parse-worker.ts) send each
// other: a module of its own, so the worker's bundle holds nothing of the thread that starts it.

export interface ParseJob {
  provider: ImportProvider;
  /** the file's name, for messages */
  name: string;
  bytes: Uint8Array;
  opts: ParseOptions;
}

/** What the worker sends: rows in batches, then the counts, or why it refused the file. */
export type ParseMessage =
  | { kind: "rows"; rows: ImportRow[] }
  | ({ kind: "done" } & Omit<ParsedImport, "rows">)
  | { kind: "refused"; message: string; issues: InvalidInputError["issues"] }
  | { kind: "failed"; error: string };

/** Rows per message: each arrives as a task of its own, a few milliseconds to take in. */
export const ROWS_PER_MESSAGE = 2_000;
