import "server-only";
import { InvalidInputError } from "../core/errors.ts";
import { db } from "../db.ts";
import { H10FormatError, parseH10Csv } from "./rates-h10.ts";
import { importRates, ratesImportLines } from "./rates-import.ts";
import type { RatesUploadResult } from "./rates-upload.ts";

// The exchange-rate upload's service: parse the H.10/G.5 file (a bad file is refused whole, each
// bad line an issue "line N"), then importRates on the app's store: a preview writes nothing; an
// apply adds the new rates in one transaction, rates already there unchanged, conflicts reported
// and left as they are (as `npm run rates:import` does).

/** Parses or throws InvalidInputError (400) naming each bad line. */
export function parseRatesUpload(text: string, file: string) {
  try {
    return parseH10Csv(text, file);
  } catch (e) {
    if (!(e instanceof H10FormatError)) throw e;
    throw new InvalidInputError(
      `${file}: not imported, nothing written: ${e.problems.join("; ")}`,
      e.problems.map((p) => {
        const m = /^(line \d+(?:, column \d+)?)(?:, ([^:]+))?: (.*)$/.exec(p);
        return m
          ? { path: m[1] ?? "", message: m[2] ? `${m[2]}: ${m[3] ?? ""}` : (m[3] ?? p) }
          : { path: "", message: p };
      }),
    );
  }
}

export async function importRatesUpload(
  text: string,
  file: string,
  by: string,
  opts: { dryRun: boolean },
): Promise<RatesUploadResult> {
  const parsed = parseRatesUpload(text, file);
  const result = await importRates(db, parsed.rows, by, opts);
  return { ...result, series: parsed.series, summary: ratesImportLines(result) };
}
