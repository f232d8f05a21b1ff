// Time and memory of the FOCUS export at fleet scale: a month of ledger at HOSTS hosts with 8 GPUs
// each (host rows plus GPU rows, as the ledger job writes them), exported hourly and daily as CSV
// and Parquet through the code the route streams. Each export runs in its own process under a
// V8 heap cap (it fails if memory grows with the range) and writes to a file; this process then
// reads the file back and runs the FOCUS check on it.
//   node --conditions=react-server --import tsx bench/focus-export.ts [hosts=200] [days=30]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

const HEAP_CAP_MIB = 192;
const GPUS = 8;
const MODEL_COST: [string, number][] = [
  ["on_demand", 32_772_600],
  ["spot", 12_000_000],
  ["reserved", 19_000_000],
];

function seed(file: string, hosts: number, days: number): number {
  const sql = new Database(file);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const insertHost = sql.prepare(
    `INSERT INTO Host (id, hostname, provider, instanceType, region, pricingModel, team, project,
       labels, createdAt, updatedAt)
     VALUES (?, ?, 'aws', 'p4d.24xlarge', 'us-east-1', ?, ?, 'p', ?, ?, ?)`,
  );
  const insertHour = sql.prepare(
    `INSERT INTO UsageHour (id, hourStart, hostId, gpuKey, gpuModel, provider, instanceType, region,
       pricingModel, team, project, upSeconds, samples, utilMean, idleSeconds, priced, costMicros,
       idleCostMicros, currency, source, createdAt)
     VALUES (?, ?, ?, ?, 'A100', 'aws', 'p4d.24xlarge', 'us-east-1', ?, ?, 'p', 3600, 240, 0.5, 0,
       1, ?, ?, 'USD', 'bench', ?)`,
  );
  sql
    .prepare(
      `INSERT INTO PriceEntry (id, provider, instanceType, region, pricingModel, gpuModel, gpuCount,
         gpuMemoryBytes, usdPerHourMicros, currency, effectiveFrom, source, sourceDate, origin,
         createdAt, updatedAt)
       VALUES ('p1', 'aws', 'p4d.24xlarge', '*', 'on_demand', 'A100', 8, 42949672960, 32772600,
         'USD', '2024-01-01T00:00:00.000+00:00', 'bench', '2024-01-01', 'user', ?, ?)`,
    )
    .run(now, now);
  let n = 0;
  sql.transaction(() => {
    for (let h = 0; h < hosts; h++) {
      const [model, cost] = MODEL_COST[h % MODEL_COST.length] ?? ["on_demand", 0];
      const team = `team-${h % 5}`;
      const labels = JSON.stringify({ instance_id: `i-${h.toString(16).padStart(17, "0")}` });
      insertHost.run(`h${h}`, `gpu-${h}`, model, team, labels, now, now);
      for (let t = 0; t < days * 24; t++) {
        const at = new Date(Date.UTC(2026, 10, 1) + t * 3_600_000).toISOString();
        const hour = at.replace("Z", "+00:00");
        insertHour.run(`u${n++}`, hour, `h${h}`, "host", model, team, cost, cost / 4, now);
        for (let g = 0; g < GPUS; g++) {
          insertHour.run(
            `u${n++}`,
            hour,
            `h${h}`,
            `GPU-${h}-${g}`,
            model,
            team,
            cost / GPUS,
            0,
            now,
          );
        }
      }
    }
  })();
  sql.close();
  return n;
}

/** Child: one export to a file; prints {seconds, bytes, peakRssMiB} as JSON. */
async function child(db: string, granularity: "hourly" | "daily", format: "csv" | "parquet") {
  const out = `${db}.${granularity}.${format}`;
  const { createDb } = await import("@/lib/db.ts");
  const { exportFocus } = await import("../lib/focus/export-focus.ts");
  const client = createDb(`file:${db}`);
  const started = performance.now();
  let peakRss = process.memoryUsage().rss;
  const file = await exportFocus(
    { format, granularity, month: "2026-11" },
    { scope: null, client },
  );
  const fh = await open(out, "w");
  let bytes = 0;
  const reader = file.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    await fh.write(value);
    bytes += value.byteLength;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  await fh.close();
  await client.$disconnect();
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ out, seconds, bytes, peakRssMiB: peakRss / 2 ** 20 }));
}

async function main(hosts: number, days: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-focus-bench-"));
  const db = join(dir, "bench.db");
  try {
    execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", db]);
    const rows = seed(db, hosts, days);
    console.log(
      `${hosts} hosts × ${days * 24} hours: ${rows} ledger rows (host + 8 GPU rows per hour)`,
    );
    const { checkFocusTable, tableFromCsv, tableFromParquet } =
      await import("../lib/focus/check.ts");
    for (const granularity of ["hourly", "daily"] as const) {
      for (const format of ["csv", "parquet"] as const) {
        const args = [
          `--max-old-space-size=${HEAP_CAP_MIB}`,
          "--conditions=react-server",
          "--import",
          "tsx",
          import.meta.filename,
          "--child",
          db,
          granularity,
          format,
        ];
        const line = execFileSync(process.execPath, args, { encoding: "utf8" }).trim().split("\n");
        const r = JSON.parse(line.at(-1) ?? "{}") as {
          out: string;
          seconds: number;
          bytes: number;
          peakRssMiB: number;
        };
        const buf = readFileSync(r.out);
        const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
        const table =
          format === "csv" ? tableFromCsv(buf.toString("utf8")) : await tableFromParquet(ab);
        const issues = checkFocusTable(table).length;
        console.log(
          `${granularity} ${format}: ${table.rows.length} rows, ${(r.bytes / 2 ** 20).toFixed(2)} MiB ` +
            `in ${r.seconds.toFixed(1)} s, peak RSS ${r.peakRssMiB.toFixed(0)} MiB ` +
            `(heap capped at ${HEAP_CAP_MIB} MiB); FOCUS check: ${issues} issues`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (argv[0] === "--child") {
  await child(
    argv[1] ?? "",
    argv[2] === "daily" ? "daily" : "hourly",
    argv[3] === "parquet" ? "parquet" : "csv",
  );
} else {
  await main(Number(argv[0] ?? 200), Number(argv[1] ?? 30));
}
