// `npm run rates:import -- --file=PATH [--file=PATH…] [--dry-run]`: imports exchange rates from
// the Federal Reserve's H.10/G.5 series as the Board's Data Download Program writes them (CSV,
// labels included, series in columns: lib/pricing/rates-h10.ts). Daily series (RXI_N.B.CH) apply
// from their day, monthly averages (RXI_N.M.CH) from the first of their month. A file with a bad
// line is refused, every bad line named, and nothing of any file is written.
import { basename } from "node:path";
import { db } from "../lib/db.ts";
import { H10FormatError, parseH10Csv } from "../lib/pricing/rates-h10.ts";
import { importRates, ratesImportLines } from "../lib/pricing/rates-import.ts";
import { fileCli } from "./lib/file-cli.ts";

/** a daily series since 1981 is about 0.3 MiB; anything far larger is not an H.10 download */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const { paths, dryRun, fail, read } = fileCli(
  "rates import",
  "usage: npm run rates:import -- --file=PATH [--file=PATH…] [--dry-run]",
  MAX_FILE_BYTES,
  "not an H.10 download",
);

const rows = [];
for (const p of paths) {
  const text = read(p);
  try {
    rows.push(...parseH10Csv(text, basename(p)).rows);
  } catch (e) {
    if (e instanceof H10FormatError) {
      fail(`refused, nothing written: ${e.file}:\n  ${e.problems.join("\n  ")}`);
    }
    throw e;
  }
}
try {
  const result = await importRates(db, rows, "rates:import (H.10 file)", {
    dryRun,
  });
  for (const line of ratesImportLines(result)) console.log(line);
  if (result.dryRun) console.log("gpufleet: rates import: dry run, nothing written");
} finally {
  await db.$disconnect();
}
