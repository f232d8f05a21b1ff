import "server-only";
import { db } from "../../db.ts";
import { applyImport, type ImportResult } from "./apply.ts";
import type { ParsedImport } from "./types.ts";

/** applyImport on the app's store: what the upload route calls (routes never hold the store). */
export function applyImportToStore(
  parsed: ParsedImport,
  opts: { dryRun: boolean; provider: string },
): Promise<ImportResult> {
  return applyImport(db, parsed, opts);
}
