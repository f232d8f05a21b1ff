// `npm run bench:billing-import [-- --mb=2048] [--gpu-share=0.02]`: writes a FOCUS 1.2 CSV of the
// given size into a temp dir (an AWS account's month: hourly rows of many non-GPU resources —
// EC2, EBS, S3, data transfer — and, by share, GPU instance hours of 400 instances), imports it
// (apply, not a preview: lines are written) into a fresh SQLite store in a child process, and
// prints rows, kept lines, time and the child's peak RSS (process.resourceUsage().maxRSS) under a
// 192 MiB heap cap, then deletes the file and the store. Nothing is asserted (timings are not
// tests).
import { execFileSync, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "2048" },
    "gpu-share": { type: "string", default: "0.02" },
    "dry-run": { type: "boolean", default: false },
    child: { type: "string" },
  },
});

if (values.child) {
  const { createDb } = await import("../lib/db.ts");
  const { importBillFile } = await import("../lib/billing/service.ts");
  const db = createDb(process.env.DATABASE_URL);
  let peakHeap = 0;
  const timer = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 200);
  const started = performance.now();
  const r = await importBillFile(
    values.child,
    { file: "bench.csv", by: "bench", dryRun: process.env.BENCH_DRY_RUN === "1" },
    db,
  );
  const ms = performance.now() - started;
  clearInterval(timer);
  await db.$disconnect();
  console.log(
    JSON.stringify({
      rowsRead: r.rowsRead,
      rowsKept: r.rowsKept,
      lines: r.lines,
      instances: r.instances,
      ms: Math.round(ms),
      maxRssKiB: process.resourceUsage().maxRSS,
      peakHeapMiB: Math.round(peakHeap / 2 ** 20),
    }),
  );
  process.exit(0);
}

const HEADER =
  "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargeDescription,ChargePeriodEnd,ChargePeriodStart,CommitmentDiscountId,CommitmentDiscountType,EffectiveCost,ListCost,PricingCategory,ProviderName,RegionId,ResourceId,ResourceType,ServiceCategory,ServiceName,SkuMeter,SubAccountId,x_UsageType\n";
const GPU = ["p4d.24xlarge", "p5.48xlarge", "g5.xlarge", "g6.xlarge", "g4dn.xlarge"];
const OTHER: [string, string, string][] = [
  ["Compute", "Instance", "BoxUsage:m6i.large"],
  ["Compute", "Instance", "BoxUsage:c7g.xlarge"],
  ["Storage", "Volume", "EBS:VolumeUsage.gp3"],
  ["Storage", "Bucket", "TimedStorage-ByteHrs"],
  ["Networking", "Transfer", "DataTransfer-Out-Bytes"],
];

async function generate(path: string, bytes: number, gpuShare: number): Promise<number> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  out.write(HEADER);
  let written = HEADER.length;
  let rows = 0;
  const start = Date.parse("2026-11-01T00:00:00Z");
  const period = "2026-12-01T00:00:00Z,2026-11-01T00:00:00Z";
  while (written < bytes) {
    const hour = start + (rows % 720) * 3_600_000;
    const s = new Date(hour).toISOString();
    const e = new Date(hour + 3_600_000).toISOString();
    const gpu = (rows * 2654435761) % 1000 < gpuShare * 1000;
    let line: string;
    if (gpu) {
      const i = rows % 400;
      const type = GPU[i % GPU.length];
      const id = `i-0${i.toString(16).padStart(16, "0")}`;
      line = `12.345678,111111111111,USD,${period},Usage,${type} instance hours,${e},${s},,,12.345678,15.000000,Standard,AWS,us-east-1,arn:aws:ec2:us-east-1:222222222222:instance/${id},Instance,Compute,Amazon Elastic Compute Cloud,Instance Hours,222222222222,USE1-BoxUsage:${type}\n`;
    } else {
      const [cat, kind, usage] = OTHER[rows % OTHER.length] ?? ["", "", ""];
      const id = `res-${(rows % 200_000).toString(36)}`;
      line = `0.012345,111111111111,USD,${period},Usage,${usage},${e},${s},,,0.012345,0.012345,Standard,AWS,us-east-1,${id},${kind},${cat},Amazon Web Services,${usage},222222222222,USE1-${usage}\n`;
    }
    if (!out.write(line)) await once(out, "drain");
    written += line.length;
    rows++;
  }
  out.end();
  await once(out, "close");
  return rows;
}

/** The child's heap cap: the import must stream in it whatever the file's size (without a cap V8
 * lets the heap grow lazily towards its default limit, which says nothing about what is kept). */
const HEAP_CAP_MIB = 192;

const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-bill-"));
try {
  const csv = join(dir, "focus.csv");
  const db = join(dir, "bench.db");
  const mb = Number(values.mb);
  const t0 = performance.now();
  const rows = await generate(csv, mb * 2 ** 20, Number(values["gpu-share"]));
  const genS = (performance.now() - t0) / 1000;
  const size = statSync(csv).size;
  console.log(`generated ${(size / 2 ** 20).toFixed(0)} MiB, ${rows} rows in ${genS.toFixed(0)} s`);
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", db]);
  const child = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_CAP_MIB}`,
      "--conditions=react-server",
      "--import",
      "tsx",
      "bench/billing-import.ts",
      `--child=${csv}`,
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: `file:${db}`,
        BENCH_DRY_RUN: values["dry-run"] ? "1" : "0",
      },
      encoding: "utf8",
    },
  );
  if (child.status !== 0) throw new Error(`import failed:\n${child.stderr}`);
  const r = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as {
    rowsRead: number;
    rowsKept: number;
    lines: number;
    ms: number;
    maxRssKiB: number;
    peakHeapMiB: number;
  };
  const s = r.ms / 1000;
  console.log(
    `imported ${r.rowsRead} rows (${r.rowsKept} GPU rows kept as ${r.lines} lines) in ${s.toFixed(0)} s ` +
      `(${(size / 2 ** 20 / s).toFixed(1)} MiB/s); peak RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB, peak heap ${r.peakHeapMiB} MiB (heap cap ${HEAP_CAP_MIB} MiB)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
