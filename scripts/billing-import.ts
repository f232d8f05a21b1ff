// `npm run billing:import -- --file=PATH [--file=PATH…] [--format=focus|cur2|alibaba|tencent]
// [--dry-run] [--by=NAME]`: imports cloud bills saved as files (FOCUS 1.0–1.2, AWS CUR 2.0, Alibaba
// or Tencent bill details; CSV, gzip CSV or Parquet), streaming, with no size cap. A file that is
// not a bill writes nothing; a newer export of a provider's month replaces the earlier import.
import { statSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { formatCents } from "../lib/core/money.ts";
import { db } from "../lib/db.ts";
import { importBillFile } from "../lib/billing/service.ts";
import { BILL_FORMATS, type BillFormat } from "../lib/billing/types.ts";

const USAGE =
  "usage: npm run billing:import -- --file=PATH [--file=PATH…] [--format=focus|cur2|alibaba|tencent] [--dry-run] [--by=NAME]";

function fail(message: string): never {
  console.error(`gpufleet: billing import: ${message}`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        file: { type: "string", multiple: true },
        format: { type: "string" },
        by: { type: "string", default: "cli" },
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
const files = values.file ?? [];
if (files.length === 0) fail(`give at least one --file\n${USAGE}`);
const format = values.format;
if (format !== undefined && !(BILL_FORMATS as readonly string[]).includes(format)) {
  fail(`--format must be one of ${BILL_FORMATS.join(", ")}, not ${format}`);
}
for (const f of files) {
  try {
    statSync(f);
  } catch {
    fail(`cannot read ${f}`);
  }
}
try {
  for (const path of files) {
    const r = await importBillFile(path, {
      file: basename(path),
      by: values.by,
      dryRun: values["dry-run"],
      ...(format ? { format: format as BillFormat } : {}),
    });
    const dollars = (m: string) => formatCents(BigInt(m));
    console.log(
      `gpufleet: ${r.dryRun ? "would import" : "imported"} ${r.file} (${r.format}, ${r.providers.join("+") || "no provider"}, ${r.period ?? "no period"}): ` +
        `${r.rowsRead} rows read, ${r.rowsKept} kept as ${r.lines} billed hours of ${r.instances} GPU instances; ` +
        `billed $${dollars(r.billedMicros)}, effective $${dollars(r.effectiveMicros)}` +
        (r.replaced ? `; replaced ${r.replaced} earlier import(s)` : ""),
    );
    for (const [reason, n] of Object.entries(r.skipped)) console.log(`  skipped ${n}: ${reason}`);
  }
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
} finally {
  await db.$disconnect();
}
