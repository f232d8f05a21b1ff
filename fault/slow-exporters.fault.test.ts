import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "@/exporter/server.ts";
import type { Db } from "@/lib/db.ts";
import { scrapeAll } from "@/lib/ingest/scrape.ts";
import { newRecorderState, recordScrapes } from "@/lib/ingest/record-scrapes.ts";
import { syncTargets } from "@/lib/ingest/sync-targets.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";

// 200 hosts, one exporter answering after 10 s and one port refusing connections: with the
// app's default scrape settings (5 s timeout, 32 in flight, 15 s interval) every other host has
// its minute row for every tick, on time, and the two bad ones are down with their reason.
// The simulator serves 198 hosts from one process; tick times are pinned.

const HOSTS = 200;
const GOOD = HOSTS - 2;
const INTERVAL_MS = 15_000; // GPUFLEET_COLLECT_INTERVAL_S's default, for the log line
// GPUFLEET_SCRAPE_TIMEOUT_MS is 5 s by default; here the simulator of 199 hosts shares this
// process's event loop with the scraper, so on 2 loaded cores a good host's answer can take
// seconds. 8 s still gives up on the 10 s host long before it answers, with room for the rest.
const TIMEOUT_MS = 8000;
const CONCURRENCY = 32; // GPUFLEET_SCRAPE_CONCURRENCY's default
const SLOW_MS = 10_000;
const T0 = new Date("2026-11-25T15:00:05.000Z");

let db: Db;
let exporter: RunningExporter;
let slow: Server;
let slowUrl: string;
let deadUrl: string;
const state = newRecorderState();

async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const addr = srv.address();
  await new Promise((r) => srv.close(r));
  return typeof addr === "object" && addr ? addr.port : 1;
}

/** A host's exporter that answers, correctly, after SLOW_MS. */
async function startSlow(upstream: string): Promise<Server> {
  const srv = createServer((_req, res) => {
    const timer = setTimeout(() => {
      void fetch(upstream)
        .then((r) => r.text())
        .then((text) => res.end(text))
        .catch(() => res.destroy());
    }, SLOW_MS);
    res.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return srv;
}

/** One tick as lib/jobs/loop.ts runs it, at a pinned time; the slow host's scrape time. */
async function tick(now: Date): Promise<{ tickMs: number; slowMs: number }> {
  const started = performance.now();
  const hosts = await db.host.findMany({ where: { target: { not: null } } });
  const results = await scrapeAll(
    hosts.map((h) => h.target ?? ""),
    { concurrency: CONCURRENCY, timeoutMs: TIMEOUT_MS },
  );
  const scraped = results.map((result, i) => ({ hostId: hosts[i]?.id ?? "", result }));
  await recordScrapes(db, state, scraped, now);
  const slowMs = results.find((r) => r.url === slowUrl)?.durationMs ?? Number.NaN;
  return { tickMs: performance.now() - started, slowMs };
}

beforeAll(async () => {
  db = makeTestDb().db;
  exporter = await startExporter({
    simulate: true,
    simulateHosts: GOOD + 1,
    simulateSeed: 14,
    listenAddress: "127.0.0.1:0",
    // the values need not move between ticks: a slow simulator tick would only compete with
    // the scrapes for this process's event loop
    intervalMs: 600_000,
    logLevel: "error",
  });
  slow = await startSlow(`${exporter.url}/hosts/${GOOD}/metrics`);
  const addr = slow.address();
  slowUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/metrics`;
  deadUrl = `http://127.0.0.1:${await closedPort()}/metrics`;
  const good = Array.from({ length: GOOD }, (_, i) => ({
    url: `${exporter.url}/hosts/${i}/metrics`,
    labels: {},
  }));
  await syncTargets(
    db,
    [...good, { url: slowUrl, labels: {} }, { url: deadUrl, labels: {} }],
    "file_sd",
  );
}, 60_000);

afterAll(async () => {
  slow?.closeAllConnections();
  await new Promise((r) => slow?.close(r));
  await exporter?.close().catch(() => {});
  await db?.$disconnect();
});

describe(`a slow and a dead exporter among ${HOSTS} hosts (${testDbKind()})`, () => {
  it("every other host is collected on time each interval; the two are down with why", async () => {
    const durations: number[] = [];
    const minutes = [T0, new Date(T0.getTime() + 60_000), new Date(T0.getTime() + 120_000)];
    for (const now of minutes) {
      const { tickMs, slowMs } = await tick(now);
      durations.push(tickMs);
      // the slow host is given up at the timeout, never waited for: it holds one of the
      // CONCURRENCY slots for TIMEOUT_MS while the others go on. (The whole tick's time is
      // logged, not asserted: on 2 loaded cores with the exporter in-process it varies.)
      expect(slowMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(slowMs).toBeLessThan(SLOW_MS);
    }
    const hosts = await db.host.findMany({
      select: { id: true, target: true, state: true, lastError: true },
    });
    expect(hosts).toHaveLength(HOSTS);
    const bad = new Map([
      [slowUrl, `timed out after ${TIMEOUT_MS} ms`],
      [deadUrl, "ECONNREFUSED"],
    ]);
    for (const now of minutes) {
      const minuteStart = new Date(now.getTime() - (now.getTime() % 60_000));
      const rows = await db.hostMinute.findMany({ where: { minuteStart } });
      const byHost = new Map(rows.map((r) => [r.hostId, r]));
      for (const h of hosts) {
        const row = byHost.get(h.id);
        const why = bad.get(h.target ?? "");
        expect(row, `${h.target} at ${minuteStart.toISOString()}`).toMatchObject({
          samples: 1,
          upSamples: why === undefined ? 1 : 0,
        });
      }
      const gpuHosts = await db.gpuMinute.findMany({
        where: { minuteStart },
        distinct: ["hostId"],
        select: { hostId: true },
      });
      expect(gpuHosts).toHaveLength(GOOD);
    }
    for (const h of hosts) {
      const why = bad.get(h.target ?? "");
      if (why === undefined) expect(h.state, h.target ?? "").toBe("up");
      else expect([h.state, h.lastError]).toEqual(["down", why]);
    }
    const took = durations.map((d) => (d / 1000).toFixed(1)).join(", ");
    console.log(
      `slow/dead exporters: ${HOSTS} hosts, interval ${INTERVAL_MS / 1000} s, ticks took ${took} s`,
    );
  }, 60_000);
});
