import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "@/lib/core/errors.ts";
import { monthBounds } from "@/lib/core/months.ts";
import type { Db } from "@/lib/db.ts";
import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import { lookupPrice } from "@/lib/pricing/lookup.ts";
import { updatePrice } from "@/lib/pricing/manage.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";
import { GIB, gpu } from "./ledger-fixtures.ts";
import { computeHostHour, toUsageHourData } from "./ledger-math.ts";
import type { HostSample } from "./ledger-types.ts";
import { attribution } from "./reprice-fixtures.ts";
import { recoverRepriceRuns, STALE_RUN_MS } from "./reprice-run.ts";
import { applyReprice, previewReprice } from "./reprice.ts";

// Issue 23: a re-pricing apply SIGKILLed at a page boundary (a real process, on SQLite and in the
// "postgres" project on PostgreSQL) leaves the closed month at its old total, never in between, with
// the attempt already in the audit log; recovery then abandons the dead run (nothing to undo in the
// ledger) and a new apply moves the month to the new total at once.

const WORKER = fileURLToPath(new URL("../testing/reprice-worker.ts", import.meta.url));
const MONTH = "2026-10";
const NOW = new Date("2026-11-15T00:00:00Z"); // October is closed (billed)
const HOSTS = 3;
const HOURS = 24;
const PAGE_ROWS = 12; // 3 rows per host-hour: host-hours are cut across pages
const PAUSE_AT = 2;
const HOUR_MS = 3_600_000;

let db: Db;
let url: string;
let worker: ChildProcess | null = null;

const attr = attribution({ instanceType: "tc.kill" });

async function seed(): Promise<void> {
  const price = await db.priceEntry.create({
    data: {
      provider: attr.provider,
      instanceType: attr.instanceType,
      pricingModel: attr.pricingModel,
      gpuModel: "A100",
      gpuCount: 2,
      gpuMemoryBytes: 40n * BigInt(GIB),
      usdPerHourMicros: 14_000_000n,
      effectiveFrom: new Date("2026-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2026-01",
      origin: "user",
    },
  });
  const prices = await loadPriceRows(db);
  const { from } = monthBounds(MONTH);
  for (let h = 0; h < HOSTS; h++) {
    const hostId = (await db.host.create({ data: { hostname: `kill-${h}`, ...attr } })).id;
    for (let i = 0; i < HOURS; i++) {
      const hourStart = new Date(from.getTime() + (10 * 24 + i) * HOUR_MS);
      const samples: HostSample[] = [];
      for (let s = -1860; s < 3600; s += 60) {
        const idle = (s + h * 600) % 3600 > 2400;
        samples.push({
          t: new Date(hourStart.getTime() + s * 1000),
          up: true,
          gpus: [
            gpu("GPU-a", idle ? { util: 0, processes: 0, memUsedBytes: 0 } : {}),
            gpu("GPU-b"),
          ],
        });
      }
      const rows = computeHostHour({
        hourStart,
        host: attr,
        price: lookupPrice(prices, { ...attr, at: hourStart }),
        samples,
        intervalSeconds: 60,
      });
      await db.usageHour.createMany({ data: rows.map((r) => toUsageHourData(r, hostId, "test")) });
    }
  }
  // the DGX-style correction: the price was wrong, finance fixes it and re-prices October
  await updatePrice(price.id, { usdPerHour: "20.50" }, "fin@test.local", db);
}

/** The month's total as the costs pages read it: the sum of its host rows. */
async function monthTotal(): Promise<bigint> {
  const { from, to } = monthBounds(MONTH);
  const rows = await db.usageHour.findMany({
    where: { gpuKey: "host", hourStart: { gte: from, lt: to } },
    select: { costMicros: true },
  });
  return rows.reduce((s, r) => s + r.costMicros, 0n);
}

const ledgerMoney = () =>
  db.usageHour.findMany({
    orderBy: { id: "asc" },
    select: { id: true, costMicros: true, idleCostMicros: true, priced: true, currency: true },
  });

const repriceAudits = () =>
  db.auditEvent.findMany({
    where: { action: { startsWith: "pricing.reprice" } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });

function startWorker(expected: string): Promise<{ proc: ChildProcess; runId: string }> {
  const proc = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      WORKER,
      url,
      MONTH,
      expected,
      NOW.toISOString(),
      String(PAGE_ROWS),
      String(PAUSE_AT),
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: url } },
  );
  worker = proc;
  const stderr: string[] = [];
  proc.stderr?.on("data", (d: Buffer) => stderr.push(d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no pause in 60 s: ${stderr.join("")}`)),
      60_000,
    );
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}) before pausing: ${stderr.join("")}`));
    });
    createInterface({ input: proc.stdout ?? process.stdin }).on("line", (line) => {
      const msg = JSON.parse(line) as { paused?: number; runId?: string | null };
      if (msg.paused === undefined) return;
      clearTimeout(timer);
      if (!msg.runId) reject(new Error("paused without a staging run"));
      else resolve({ proc, runId: msg.runId });
    });
  });
}

function killHard(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once("exit", () => resolve());
    proc.kill("SIGKILL");
  });
}

beforeAll(async () => {
  ({ db, url } = makeTestDb());
  await seed();
}, 60_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill("SIGKILL");
  await db?.$disconnect();
});

describe(`re-pricing killed with SIGKILL at a page boundary (${testDbKind()})`, () => {
  it("leaves the month at its old total, audited as started, until a new apply moves it at once", async () => {
    const preview = await previewReprice({ month: MONTH, now: NOW }, db);
    const oldTotal = BigInt(preview.oldTotalMicros);
    const newTotal = BigInt(preview.newTotalMicros);
    expect(preview.closed).toBe(true);
    expect(preview.hours.changed).toBe(HOSTS * HOURS);
    expect(newTotal).toBeGreaterThan(oldTotal);
    expect(await monthTotal()).toBe(oldTotal);
    const before = await ledgerMoney();

    const { proc, runId } = await startWorker(preview.newTotalMicros);
    // paused after page 2 of many: the attempt is audited, rows are staged, the ledger is untouched
    const started = (await repriceAudits()).filter((a) => a.action === "pricing.reprice.started");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ actor: "worker@test.local", target: MONTH });
    expect(JSON.parse(started[0]?.detail ?? "{}")).toMatchObject({
      runId,
      oldTotalMicros: preview.oldTotalMicros,
      expectedNewTotalMicros: preview.newTotalMicros,
      reopen: true,
    });
    const staged = await db.repriceStage.count({ where: { runId } });
    expect(staged).toBeGreaterThan(0);
    expect(staged).toBeLessThan(preview.rowsChanged);
    expect(await monthTotal()).toBe(oldTotal);
    // one re-pricing of a month at a time: a second apply is refused while the first is alive
    await expect(
      applyReprice(
        {
          month: MONTH,
          now: NOW,
          by: "fin@test.local",
          expectedNewTotalMicros: newTotal,
          reopen: true,
        },
        db,
      ),
    ).rejects.toThrow(ConflictError);

    await killHard(proc);
    expect(proc.signalCode).toBe("SIGKILL");
    // after the kill: the old total exactly, every row as it was, no applied entry
    expect(await monthTotal()).toBe(oldTotal);
    expect(await ledgerMoney()).toEqual(before);
    expect((await repriceAudits()).map((a) => a.action)).toEqual(["pricing.reprice.started"]);
    expect(await db.repriceRun.findUnique({ where: { id: runId } })).toMatchObject({
      state: "staging",
    });

    // start-up recovery: not before the run has been silent for STALE_RUN_MS, then abandoned
    expect(await recoverRepriceRuns(db)).toEqual([]);
    const later = new Date(Date.now() + STALE_RUN_MS + 1000);
    expect(await recoverRepriceRuns(db, later)).toEqual([runId]);
    expect(await db.repriceRun.findUnique({ where: { id: runId } })).toMatchObject({
      state: "abandoned",
    });
    expect(await db.repriceStage.count()).toBe(0);
    const abandoned = (await repriceAudits()).find((a) => a.action === "pricing.reprice.abandoned");
    expect(abandoned).toMatchObject({ actor: "system", target: MONTH });
    expect(JSON.parse(abandoned?.detail ?? "{}")).toMatchObject({ runId });
    expect(await monthTotal()).toBe(oldTotal);
    expect(await ledgerMoney()).toEqual(before);

    // the same preview applied again: the whole month moves to the new total
    const done = await applyReprice(
      {
        month: MONTH,
        now: NOW,
        by: "fin@test.local",
        expectedNewTotalMicros: preview.newTotalMicros,
        reopen: true,
        pageRows: PAGE_ROWS,
      },
      db,
    );
    expect(done).toMatchObject({ applied: true, reopened: true });
    expect(await monthTotal()).toBe(newTotal);
    expect((await previewReprice({ month: MONTH, now: NOW }, db)).hours.changed).toBe(0);
    expect((await repriceAudits()).map((a) => a.action).sort()).toEqual(
      [
        "pricing.reprice.abandoned",
        "pricing.reprice.reopen",
        "pricing.reprice.started",
        "pricing.reprice.started",
      ].sort(),
    );
    console.log(
      `reprice kill (${testDbKind()}): killed after page ${PAUSE_AT} with ${staged} of ` +
        `${preview.rowsChanged} rows staged; the month stayed at ${oldTotal} until the new apply ` +
        `moved it to ${newTotal}`,
    );
  }, 120_000);
});
