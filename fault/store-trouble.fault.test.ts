import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startExporter, type RunningExporter } from "@/exporter/server.ts";
import type { Db } from "@/lib/db.ts";
import { scrapeAll, scrapeOne } from "@/lib/ingest/scrape.ts";
import { newRecorderState, recordScrapes } from "@/lib/ingest/record-scrapes.ts";
import { syncTargets } from "@/lib/ingest/sync-targets.ts";
import { runLedgerJob } from "@/lib/ledger/job.ts";
import { embeddedBackend } from "@/lib/metrics/backend.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";
import { seedClosedHours, SEED_HOSTS, SEED_GPUS } from "./seed-minutes.ts";

// Store trouble under the app: SQLite locked past its busy timeout by another connection
// (`BEGIN EXCLUSIVE`), and PostgreSQL dropping the app's connections (pg_terminate_backend, as a
// restart does). The collector logs and catches up, routes answer 503 store_unavailable (never a
// 500 or a stack trace), and nothing is half-written. Times are pinned: ticks pass their own `now`.

// Route handlers use the app's global client: it is pointed at this file's test database.
const store = vi.hoisted(() => {
  process.env.DATABASE_URL = `file:${process.env.TMPDIR ?? "/tmp"}/gpufleet-fault-unused.db`;
  return { db: undefined as unknown };
});
vi.mock("@/lib/db.ts", async (importOriginal) => {
  const orig = await importOriginal<typeof import("@/lib/db.ts")>();
  return {
    ...orig,
    get db() {
      return store.db;
    },
  };
});

const T0 = new Date("2026-11-25T15:00:05.000Z"); // a tick's pinned time; minutes start on :00
const kind = testDbKind();
let db: Db;
let url: string;
let exporter: RunningExporter;
let token: string;
let budgets: typeof import("@/app/api/budgets/route.ts");
const state = newRecorderState();
/** what the latest tick's scrapes answered ("ok" or the error), for failure messages */
let lastScrapes: string[] = [];

const get = () =>
  budgets.GET(
    new Request("http://local/api/budgets", { headers: { authorization: `Bearer ${token}` } }),
    undefined,
  );

/** One collector tick as lib/jobs/loop.ts runs it (a failing step is logged), at a pinned time. */
async function tick(now: Date, log: (m: string) => void = () => {}): Promise<void> {
  try {
    const hosts = await db.host.findMany({ where: { target: { not: null } } });
    const results = await scrapeAll(
      hosts.map((h) => h.target ?? ""),
      { concurrency: 4, timeoutMs: 5000 },
    );
    lastScrapes = results.map((r) => (r.ok ? "ok" : r.error));
    const scraped = results.map((result, i) => ({ hostId: hosts[i]?.id ?? "", result }));
    await recordScrapes(db, state, scraped, now, log);
  } catch (e) {
    log(`scrape failed: ${(e as Error).message}`);
  }
}

const minuteRows = async (minuteStart: Date) => ({
  hosts: await db.hostMinute.findMany({ where: { minuteStart } }),
  gpus: await db.gpuMinute.count({ where: { minuteStart } }),
});

beforeAll(async () => {
  ({ db, url } = makeTestDb());
  store.db = db;
  const { createApiToken } = await import("@/lib/auth/tokens.ts");
  token = (await createApiToken({ name: "fault", scope: "read", createdBy: "test" })).token;
  budgets = await import("@/app/api/budgets/route.ts");
  // one simulated host: a failed batch of one is not retried host by host (see recordScrapes)
  exporter = await startExporter({
    simulate: true,
    simulateHosts: 1,
    simulateSeed: 14,
    listenAddress: "127.0.0.1:0",
    intervalMs: 200,
    logLevel: "error",
  });
  await syncTargets(db, [{ url: `${exporter.url}/hosts/0/metrics`, labels: {} }], "file_sd");
  await tick(T0);
}, 60_000);

afterAll(async () => {
  await exporter?.close().catch(() => {});
  await db?.$disconnect();
});

describe.skipIf(kind !== "sqlite")("SQLite locked by another connection", () => {
  const file = () => url.replace(/^file:/, "");

  it("a route answers 503 store_unavailable and a tick logs, then catches up whole", async () => {
    expect((await get()).status).toBe(200);
    const lock = new Database(file());
    lock.exec("BEGIN EXCLUSIVE");
    const logged: string[] = [];
    const t1 = new Date(T0.getTime() + 60_000);
    let res: Response;
    try {
      [res] = await Promise.all([get(), tick(t1, (m) => logged.push(m))]);
    } finally {
      lock.exec("COMMIT");
      lock.close();
    }
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const body = (await res.json()) as { error: string; code: string };
    expect(body.code).toBe("store_unavailable");
    expect(body.error).toMatch(/^the database is busy or unreachable; try again shortly/);
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|prisma|\.db|invocation/i);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^scrape failed: [\s\S]*Operation has timed out/);

    // nothing of the locked tick was half-written
    const minute = new Date(t1.getTime() - 5_000);
    expect(await minuteRows(minute)).toEqual({ hosts: [], gpus: 0 });

    // better-sqlite3 waits out the busy timeout synchronously: the whole process (here also the
    // in-process exporter, which a real deployment runs apart) stood still for 5 s. Wait until the
    // exporter answers a scrape again (its overdue tick and keep-alive closes run first) before
    // the tick under test; a fixed pause was not always enough on a loaded machine.
    const target = `${exporter.url}/hosts/0/metrics`;
    const deadline = Date.now() + 20_000;
    let answer = await scrapeOne(target, 5000);
    while (!answer.ok && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      answer = await scrapeOne(target, 5000);
    }
    expect(answer, "the exporter answers again after the stall").toMatchObject({ ok: true });
    // the next tick in that minute writes it whole (the locked tick could not even list hosts)
    await tick(new Date(t1.getTime() + 15_000));
    const after = await minuteRows(minute);
    expect(
      after.hosts.map((h) => [h.samples, h.upSamples]),
      `the scrape answered ${lastScrapes.join(", ")}`,
    ).toEqual([[1, 1]]);
    expect(after.gpus).toBeGreaterThan(0);
    expect((await get()).status).toBe(200);
  }, 30_000);

  it("a ledger host-hour is all or nothing: a write refused by the lock leaves no row", async () => {
    const ledger = makeTestDb();
    try {
      const hours = await seedClosedHours(ledger.db, T0, 2);
      const ctx = { db: ledger.db, now: T0, metrics: embeddedBackend(ledger.db, 60).source };
      // IMMEDIATE: other connections still read (samples, prices) but cannot write
      const lock = new Database(ledger.url.replace(/^file:/, ""));
      lock.exec("BEGIN IMMEDIATE");
      const failed = await runLedgerJob(ctx, 1).then(
        () => null,
        (e: Error) => e,
      );
      lock.exec("COMMIT");
      lock.close();
      expect(failed?.message).toMatch(/timed out/i);
      expect(await ledger.db.usageHour.count()).toBe(0);
      expect(await ledger.db.jobState.count({ where: { name: "ledger.lastHour" } })).toBe(0);
      await runLedgerJob(ctx, 2);
      const rows = await ledger.db.usageHour.count({ where: { hourStart: { in: hours } } });
      expect(rows).toBe(hours.length * SEED_HOSTS * (1 + SEED_GPUS));
    } finally {
      await ledger.db.$disconnect();
    }
  }, 30_000);
});

describe.skipIf(kind !== "postgres")("PostgreSQL dropping the app's connections", () => {
  const terminate = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const r = await c.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity " +
        "WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    await c.end();
    return r.rowCount ?? 0;
  };

  // pg's pool drops a terminated idle connection when the server says so and opens a new one:
  // in practice the next request already succeeds; if it raced the notice, it must be a 503.
  it("routes answer 503 store_unavailable or succeed, and recover at once", async () => {
    expect((await get()).status).toBe(200);
    expect(await terminate()).toBeGreaterThan(0);
    const first = await get();
    if (first.status !== 200) {
      expect(first.status).toBe(503);
      expect(((await first.json()) as { code: string }).code).toBe("store_unavailable");
    }
    expect((await get()).status).toBe(200);
  });

  it("the collector logs a lost tick and the next one writes its minute whole", async () => {
    const t1 = new Date(T0.getTime() + 120_000);
    expect(await terminate()).toBeGreaterThan(0);
    const logged: string[] = [];
    await tick(t1, (m) => logged.push(m));
    for (const m of logged) expect(m).toMatch(/failed: [\s\S]*(terminat|closed|reach)/i);
    await tick(new Date(t1.getTime() + 15_000));
    const minute = new Date(t1.getTime() - 5_000);
    const rows = await minuteRows(minute);
    // a tick that could not list its hosts scraped nothing; one that failed to record still
    // counted its sample in memory, and the next write carries it
    const lost = logged.some((m) => m.startsWith("scrape failed")) ? 1 : 0;
    expect(rows.hosts.map((h) => h.samples)).toEqual([2 - lost]);
    expect(rows.gpus).toBeGreaterThan(0);
  });
});

describe("real store errors through the API's error table", () => {
  it("an unreachable PostgreSQL is a 503 store_unavailable, its address kept out", async () => {
    const { createDb } = await import("@/lib/db.ts");
    const { errorResponse } = await import("@/app/api/_lib/errors.ts");
    const { isStoreUnavailable } = await import("@/lib/core/store-errors.ts");
    const net = await import("node:net");
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const addr = srv.address();
    await new Promise((r) => srv.close(r));
    const port = typeof addr === "object" && addr ? addr.port : 1;
    const gone = createDb(`postgresql://u:secret@127.0.0.1:${port}/nowhere`);
    const err = await gone.host.count().then(
      () => null,
      (e: unknown) => e,
    );
    await gone.$disconnect().catch(() => {});
    expect(isStoreUnavailable(err)).toBe(true);
    const res = errorResponse(err);
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ code: "store_unavailable" });
    expect(text).not.toContain(String(port));
    expect(text).not.toContain("secret");
  });

  it("a bad query or a unique violation is not taken for an outage", async () => {
    const { isStoreUnavailable } = await import("@/lib/core/store-errors.ts");
    const dup = await db.host.create({ data: { hostname: "dup" } });
    const err = await db.host.create({ data: { hostname: dup.hostname } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isStoreUnavailable(err)).toBe(false);
    expect(isStoreUnavailable(new Error("boom"))).toBe(false);
    expect(isStoreUnavailable(null)).toBe(false);
    expect(isStoreUnavailable("database is locked")).toBe(false);
  });
});
