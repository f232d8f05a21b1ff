// `npm run rates:import -- --file=PATH [--file=PATH…] [--dry-run]`: imports exchange rates from
// the Federal Reserve's H.10/G.5 series as the Board's Data Download Program writes them (CSV,
// labels included, series in columns: lib/pricing/rates-h10.ts). Daily series (RXI_N.B.CH) apply
// from their day, monthly averages (RXI_N.M.CH) from the first of their month. A file with a bad
// line is refused, every bad line named, and nothing of any file is written.
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { db } from "../lib/db.ts";
import { H10FormatError, parseH10Csv } from "../lib/pricing/rates-h10.ts";
import { importRates, ratesImportLines } from "../lib/pricing/rates-import.ts";

const USAGE = "usage: npm run rates:import -- --file=PATH [--file=PATH…] [--dry-run]";
/** a daily series since 1981 is about 0.3 MiB; anything far larger is not an H.10 download */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

function fail(message: string): never {
  console.error(`gpufleet: rates import: ${message}`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        file: { type: "string", multiple: true },
        "dry-run": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
  } catch (e) {
    return fail(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const paths = values.file ?? [];
if (paths.length === 0) fail(`give at least one --file\n${USAGE}`);

const rows = [];
for (const p of paths) {
  let size: number;
  try {
    const st = statSync(p);
    if (!st.isFile()) fail(`${p} is not a file`);
    size = st.size;
  } catch {
    fail(`cannot read ${p}`);
  }
  if (size > MAX_FILE_BYTES) fail(`${p} is over ${MAX_FILE_BYTES >> 20} MiB: not an H.10 download`);
  try {
    rows.push(...parseH10Csv(readFileSync(p, "utf8"), basename(p)).rows);
  } catch (e) {
    if (e instanceof H10FormatError) {
      fail(`refused, nothing written: ${e.file}:\n  ${e.problems.join("\n  ")}`);
    }
    throw e;
  }
}
try {
  const result = await importRates(db, rows, "rates:import (H.10 file)", {
    dryRun: values["dry-run"],
  });
  for (const line of ratesImportLines(result)) console.log(line);
  if (result.dryRun) console.log("gpufleet: rates import: dry run, nothing written");
} finally {
  await db.$disconnect();
}
