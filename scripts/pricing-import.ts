// `npm run pricing:import -- --provider=aws|azure|gcp|alibaba|tencent --file=PATH [--file=PATH…]
// [--source-date=YYYY-MM-DD] [--source-url=URL] [--dry-run]`: imports GPU prices from a provider's
// published price list saved as files (no internet needed). A malformed file writes nothing; rows
// whose key exists at another price are reported as conflicts and left as they are.
import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { db } from "../lib/db.ts";
import { applyImport } from "../lib/pricing/import/apply.ts";
import { parseImport } from "../lib/pricing/import/parse.ts";
import { reportLines } from "../lib/pricing/import/report.ts";
import {
  IMPORT_PROVIDERS,
  ImportFormatError,
  type ImportProvider,
} from "../lib/pricing/import/types.ts";

const USAGE =
  "usage: npm run pricing:import -- --provider=aws|azure|gcp|alibaba|tencent --file=PATH [--file=PATH…] " +
  "[--source-date=YYYY-MM-DD (Azure and GCP pages: the day they were downloaded)] [--source-url=URL] [--dry-run]";

function fail(message: string): never {
  console.error(`gpufleet: pricing import: ${message}`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        provider: { type: "string" },
        file: { type: "string", multiple: true },
        "source-date": { type: "string" },
        "source-url": { type: "string" },
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
const provider = values.provider ?? "";
if (!(IMPORT_PROVIDERS as readonly string[]).includes(provider)) {
  fail(`--provider must be one of ${IMPORT_PROVIDERS.join(", ")}\n${USAGE}`);
}
const paths = values.file ?? [];
if (paths.length === 0) fail(`give at least one --file\n${USAGE}`);
for (const p of paths) {
  try {
    if (!statSync(p).isFile()) fail(`${p} is not a file`);
  } catch {
    fail(`cannot read ${p}`);
  }
}

const started = Date.now();
try {
  const parsed = await parseImport(
    provider as ImportProvider,
    paths.map((p) => ({
      name: basename(p),
      source: createReadStream(p, { highWaterMark: 1 << 20 }),
    })),
    { sourceDate: values["source-date"], sourceUrl: values["source-url"] },
  );
  const result = await applyImport(db, parsed, {
    dryRun: values["dry-run"],
    provider,
  });
  for (const line of reportLines(result)) console.log(line);
  console.log(
    `gpufleet: pricing import ${result.dryRun ? "(dry run, nothing written) " : ""}done in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (e) {
  if (e instanceof ImportFormatError) fail(`refused, nothing written: ${e.message}`);
  throw e;
} finally {
  await db.$disconnect();
}
