// `node --conditions=react-server --import tsx bench/reprice-apply.ts [-- --hosts=24] [--pg=URL]`:
// seeds the demo fleet (GPUFLEET_DEMO_HOSTS hosts, default 24) into a fresh store (SQLite, or the
// PostgreSQL database at --pg), prices its on-prem DGX at $20.50/h (the issue 23 scenario), then
// previews and applies last month's re-pricing and prints how long each part took: the read-only
// check, staging, and the one-statement swap (the only time the month's rows are locked). Nothing
// is asserted.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { addMonths, monthOf } from "../lib/core/months.ts";
import { createDb } from "../lib/db.ts";
import { seedDemo } from "../lib/demo/seed.ts";
import { applyReprice, previewReprice } from "../lib/ledger/reprice.ts";
import { createPgTestDb, createSqliteTestDb, randomSuffix } from "../lib/testing/template-db.ts";

const { values } = parseArgs({
  options: { hosts: { type: "string", default: "24" }, pg: { type: "string" } },
});
const hosts = Number(values.hosts);
const now = new Date("2026-12-01T12:00:00Z");
const month = addMonths(monthOf(now), -1);

let url: string;
if (values.pg) url = await createPgTestDb(values.pg, `gpufleet_bench_${randomSuffix()}`);
else {
  url = `file:${join(mkdtempSync(join(tmpdir(), "gpufleet-bench-reprice-")), "bench.db")}`;
  await createSqliteTestDb(url.slice("file:".length));
}
const db = createDb(url);
const seeded = performance.now();
await seedDemo(db, {
  exporterBase: "http://127.0.0.1:1",
  databaseUrl: url,
  hosts,
  now,
  historyDays: 35,
  chartDays: 0,
});
const seedS = (performance.now() - seeded) / 1000;
await db.priceEntry.create({
  data: {
    provider: "onprem",
    instanceType: "dgx-a100",
    pricingModel: "reserved",
    gpuModel: "A100 80GB",
    gpuCount: 8,
    gpuMemoryBytes: 80n * 1024n ** 3n,
    usdPerHourMicros: 20_500_000n,
    effectiveFrom: new Date("2026-01-01T00:00:00Z"),
    source: "bench",
    sourceDate: "2026-11",
  },
});
const gpus = await db.gpu.count({ where: { parentUuid: null } });
const { from, to } = {
  from: new Date(`${month}-01T00:00:00Z`),
  to: new Date(`${monthOf(now)}-01T00:00:00Z`),
};
const rows = await db.usageHour.count({ where: { hourStart: { gte: from, lt: to } } });

const t0 = performance.now();
const preview = await previewReprice({ month, now }, db);
const t1 = performance.now();
let lastStaged = t1;
let pages = 0;
const result = await applyReprice(
  {
    month,
    now,
    by: "bench",
    expectedNewTotalMicros: preview.newTotalMicros,
    reopen: true,
    onStagedPage: async (page) => {
      pages = page;
      lastStaged = performance.now();
    },
  },
  db,
);
const t2 = performance.now();
await db.$disconnect();
const dollars = (micros: string) => (Number(BigInt(micros) / 10_000n) / 100).toFixed(2);
console.log(
  JSON.stringify({
    store: values.pg ? "postgresql" : "sqlite",
    hosts,
    gpus,
    month,
    ledgerRows: rows,
    seedS: Number(seedS.toFixed(1)),
    oldTotal: dollars(result.oldTotalMicros),
    newTotal: dollars(result.newTotalMicros),
    hoursChanged: result.hours.changed,
    rowsChanged: result.rowsChanged,
    previewMs: Math.round(t1 - t0),
    applyMs: Math.round(t2 - t1),
    stagedPages: pages,
    swapMs: Math.round(t2 - lastStaged),
  }),
);
