// `npm run spot:import -- --file=PATH [--file=PATH…] [--dry-run]`: imports AWS spot price history
// as `aws ec2 describe-spot-price-history --output json` prints it (one file per page of output,
// e.g. `aws ec2 describe-spot-price-history --instance-types p4d.24xlarge --product-descriptions
// "Linux/UNIX" --start-time 2026-10-01T00:00:00Z > p4d.json`). Only Linux/UNIX records are kept
// (others are counted and skipped). A file with a bad record is refused, every bad record named,
// and nothing of any file is written (lib/pricing/spot-history.ts).
import { basename } from "node:path";
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
import { fileCli } from "./lib/file-cli.ts";

/** 90 days of one type's records in every zone is a few MiB; far larger is not one command's output */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const { paths, dryRun, fail, read } = fileCli(
  "spot import",
  "usage: npm run spot:import -- --file=PATH [--file=PATH…] [--dry-run]",
  MAX_FILE_BYTES,
);

const all: SpotParseResult = {
  points: [],
  read: 0,
  skippedProducts: {},
  skippedZones: 0,
  duplicates: 0,
};
const problems: string[] = [];
for (const p of paths) {
  const text = read(p);
  try {
    const one = parseSpotHistory(text, basename(p));
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
    dryRun,
  });
  for (const line of spotImportLines(all, result)) console.log(line);
  if (result.dryRun) console.log("gpufleet: spot import: dry run, nothing written");
} catch (e) {
  if (e instanceof SpotConflictError) fail(e.message);
  throw e;
} finally {
  await db.$disconnect();
}
