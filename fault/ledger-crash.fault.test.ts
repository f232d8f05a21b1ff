import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { runLedgerJob } from "@/lib/ledger/job.ts";
import { embeddedBackend } from "@/lib/metrics/backend.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";
import { seedClosedHours } from "./seed-minutes.ts";

// kill -9 of a collector while the ledger job writes (SQLite, and PostgreSQL in the "postgres"
// project): the child writes one hour per call over many closed hours of stored minute data, is
// SIGKILLed once N host-hours are in the store (N not a multiple of the hosts, so the kill tends
// to land inside an hour), and is started again. Every (hour, host, gpu) row must exist exactly
// once and the totals equal a clean in-process run's on an identically seeded store.

const HOSTS = 8;
const HOURS = 6;
const KILL_AFTER = 2 * HOSTS + 3; // host-hours in the store when the kill is sent
const NOW = new Date("2026-11-25T15:20:00.000Z"); // pinned: the closed hours end at 15:00
const WORKER = fileURLToPath(new URL("./ledger-worker.ts", import.meta.url));

interface Worker {
  proc: ChildProcess;
  stderr: string[];
  done: Promise<void>;
}

let crashed: { db: Db; url: string };
let clean: { db: Db; url: string };
const workers: Worker[] = [];

function startWorker(url: string): Worker {
  const proc = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", WORKER, url, NOW.toISOString()],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const stderr: string[] = [];
  proc.stderr?.on("data", (d: Buffer) => stderr.push(d.toString()));
  const done = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout ?? process.stdin });
    lines.on("line", (line) => {
      if (line === "done") resolve();
    });
    proc.once("exit", (code, signal) =>
      reject(new Error(`worker exited (${code ?? signal}): ${stderr.join("")}`)),
    );
  });
  done.catch(() => {}); // the killed one's rejection is expected
  const w = { proc, stderr, done };
  workers.push(w);
  return w;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hostHours = (db: Db) => db.usageHour.count({ where: { gpuKey: "host" } });

/** Every ledger row keyed by hour, hostname and GPU, with what it adds to the totals. */
async function ledger(db: Db) {
  const rows = await db.usageHour.findMany({
    select: {
      hourStart: true,
      gpuKey: true,
      upSeconds: true,
      idleSeconds: true,
      costMicros: true,
      idleCostMicros: true,
      host: { select: { hostname: true } },
    },
  });
  const keys = rows.map((r) => `${r.hourStart.toISOString()}|${r.host.hostname}|${r.gpuKey}`);
  const totals = rows.reduce(
    (t, r) => ({
      cost: t.cost + r.costMicros,
      idleCost: t.idleCost + r.idleCostMicros,
      up: t.up + r.upSeconds,
      idle: t.idle + r.idleSeconds,
    }),
    { cost: 0n, idleCost: 0n, up: 0, idle: 0 },
  );
  const byKey = new Map(rows.map((r, i) => [keys[i], `${r.costMicros}/${r.idleCostMicros}`]));
  return { keys, totals, byKey };
}

beforeAll(async () => {
  crashed = makeTestDb();
  clean = makeTestDb();
  await seedClosedHours(crashed.db, NOW, HOURS, HOSTS);
  await seedClosedHours(clean.db, NOW, HOURS, HOSTS);
  await runLedgerJob(
    { db: clean.db, now: NOW, metrics: embeddedBackend(clean.db, 60).source },
    HOURS,
  );
}, 90_000);

afterAll(async () => {
  for (const w of workers) if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
  await crashed?.db.$disconnect();
  await clean?.db.$disconnect();
});

describe(`kill -9 during ledger writes (${testDbKind()})`, () => {
  it("after a restart no host-hour is lost or doubled and totals equal a clean run's", async () => {
    const first = startWorker(crashed.url);
    for (let n = 0; n < 2000 && (await hostHours(crashed.db)) < KILL_AFTER; n++) await sleep(5);
    first.proc.kill("SIGKILL");
    await new Promise((r) => first.proc.once("exit", r));
    const atKill = await hostHours(crashed.db);
    expect(atKill).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(atKill).toBeLessThan(HOURS * HOSTS); // killed mid-run, not after the end

    await startWorker(crashed.url).done;
    const got = await ledger(crashed.db);
    const want = await ledger(clean.db);
    expect(new Set(got.keys).size).toBe(got.keys.length);
    expect(got.keys.length).toBe(HOURS * HOSTS * 3); // a host row and two GPU rows
    expect(got.keys.sort()).toEqual(want.keys.sort());
    expect(got.totals).toEqual(want.totals);
    expect(got.byKey).toEqual(want.byKey);
    const state = await crashed.db.jobState.findUnique({ where: { name: "ledger.lastHour" } });
    expect(state?.value).toBe("2026-11-25T14:00:00.000Z"); // the last closed hour
    console.log(
      `ledger crash (${testDbKind()}): killed with ${atKill} of ${HOURS * HOSTS} host-hours ` +
        `written (${atKill % HOSTS === 0 ? "between hours" : "inside an hour"})`,
    );
  }, 90_000);
});
