// `npm run spot:import -- --file=PATH [--file=PATH…] [--dry-run]`: imports AWS spot price history
// as `aws ec2 describe-spot-price-history --output json` prints it (one file per page of output,
// e.g. `aws ec2 describe-spot-price-history --instance-types p4d.24xlarge --product-descriptions
// "Linux/UNIX" --start-time 2026-10-01T00:00:00Z > p4d.json`). Only Linux/UNIX records are kept
// (others are counted and skipped). A file with a bad record is refused, every bad record named,
// and nothing of any file is written (lib/pricing/spot-history.ts).
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { db } from "../lib/db.ts";
import {
  parseSpotHistory,
  SpotHistoryError,
  type SpotParseResult,
} from "../lib/pricing/spot-history.ts";
import {
  importSpotHistory,
  SpotConflictError,
  spotImportLines,
} from "../lib/pricing/spot-history-db.ts";

const USAGE = "usage: npm run spot:import -- --file=PATH [--file=PATH…] [--dry-run]";
/** 90 days of one type's records in every zone is a few MiB; far larger is not one command's output */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

function fail(message: string): never {
  console.error(`gpufleet: spot import: ${message}`);
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

const all: SpotParseResult = {
  points: [],
  read: 0,
  skippedProducts: {},
  skippedZones: 0,
  duplicates: 0,
};
const problems: string[] = [];
for (const p of paths) {
  let size = 0;
  try {
    const st = statSync(p);
    if (!st.isFile()) fail(`${p} is not a file`);
    size = st.size;
  } catch {
    fail(`cannot read ${p}`);
  }
  if (size > MAX_FILE_BYTES) fail(`${p} is over ${MAX_FILE_BYTES >> 20} MiB`);
  try {
    const one = parseSpotHistory(readFileSync(p, "utf8"), basename(p));
    all.points.push(...one.points);
    all.read += one.read;
    all.skippedZones += one.skippedZones;
    all.duplicates += one.duplicates;
    for (const [k, n] of Object.entries(one.skippedProducts))
      all.skippedProducts[k] = (all.skippedProducts[k] ?? 0) + n;
  } catch (e) {
    if (!(e instanceof SpotHistoryError)) throw e;
    problems.push(...e.problems.map((x) => `${e.file}: ${x}`));
  }
}
if (problems.length > 0) fail(`refused, nothing written:\n  ${problems.join("\n  ")}`);
try {
  const source = `aws ec2 describe-spot-price-history (${paths.map((p) => basename(p)).join(", ")})`;
  const result = await importSpotHistory(db, all.points, source.slice(0, 500), {
    dryRun: values["dry-run"],
  });
  for (const line of spotImportLines(all, result)) console.log(line);
  if (result.dryRun) console.log("gpufleet: spot import: dry run, nothing written");
} catch (e) {
  if (e instanceof SpotConflictError) fail(e.message);
  throw e;
} finally {
  await db.$disconnect();
}
