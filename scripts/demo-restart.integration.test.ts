import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { embeddedBackend } from "../lib/metrics/backend.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFleet } from "../exporter/sim/fleet.ts";
import { evaluateAlerts } from "../lib/alerts/evaluate-rules.ts";
import { createEmbeddedSource } from "../lib/metrics/embedded/source.ts";
import { createCollector, type Collector } from "../lib/jobs/loop.ts";
import type { Db } from "../lib/db.ts";
import { DEMO_SEED } from "../lib/demo/seed.ts";
import { freePort } from "../lib/testing/prometheus.ts";
import { makeTestDb } from "../lib/testing/test-db.ts";
import { waitForHttp } from "./lib/wait.ts";

// `npm start` twice with another GPUFLEET_EXPORTER_PORT and GPUFLEET_DEMO_HOSTS, as start.ts does
// it: a simulated exporter (exporter/main.ts --simulate) on a free port, then scripts/seed-demo.ts
// against it; then the collector scrapes once. Few hosts, so the first seeding takes seconds.

interface Exporter {
  base: string;
  child: ChildProcess;
}

let db: Db;
let url: string;
const running: Exporter[] = [];

async function startExporter(hosts: number): Promise<Exporter> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "exporter/main.ts",
      "--simulate",
      `--simulate.seed=${DEMO_SEED}`,
      `--simulate.hosts=${hosts}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=error",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => (stderr += b.toString()));
  const e = { base: `http://127.0.0.1:${port}`, child };
  running.push(e);
  await waitForHttp(`${e.base}/healthz`, 60_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${stderr}`);
  });
  return e;
}

async function stopExporter(e: Exporter): Promise<void> {
  if (e.child.exitCode !== null || e.child.signalCode !== null) return;
  const gone = new Promise((r) => e.child.once("exit", r));
  e.child.kill("SIGTERM");
  await gone;
}

/** scripts/seed-demo.ts as start.ts runs it; returns its output. */
function seedDemo(exporter: Exporter, hosts: number): string {
  const r = spawnSync(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/seed-demo.ts",
      `--exporter=${exporter.base}`,
      `--hosts=${hosts}`,
    ],
    { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8", timeout: 170_000 },
  );
  expect(r.stderr, r.stderr).not.toMatch(/Error/);
  expect(r.status).toBe(0);
  return r.stdout;
}

/** The app's collector (one, so it keeps the lease), with the alert job after each scrape. */
function makeCollector(): Collector {
  return createCollector(db, {
    intervalS: 15,
    metrics: embeddedBackend(db, 15),
    scrapeTimeoutMs: 5000,
    scrapeConcurrency: 4,
    retentionDays: 7,
    autoStart: false,
    jobs: [
      {
        name: "alerts",
        run: async ({ db: d, now }) => {
          const r = await evaluateAlerts(d, {
            now,
            metrics: createEmbeddedSource(d, 15),
            intervalS: 15,
          });
          expect(r.errors).toEqual([]);
        },
      },
    ],
    // a failing step (scrape, alerts) fails the test
    log: (m) => {
      throw new Error(m);
    },
  });
}
let collector: Collector;

/** One collector tick: scrape every target, then evaluate the alert rules. */
async function scrapeOnce() {
  await collector.tick();
}

async function openAlerts(kind?: string) {
  return db.alert.findMany({
    where: { state: { not: "resolved" }, ...(kind ? { rule: { kind } } : {}) },
    include: { rule: { select: { kind: true } } },
  });
}

const fleet = buildFleet({ seed: DEMO_SEED, hosts: 3 });

beforeAll(() => {
  ({ db, url } = makeTestDb());
  collector = makeCollector();
});
afterAll(async () => {
  collector.stop();
  for (const e of running) await stopExporter(e);
  await db.$disconnect();
});

describe("npm start again with another exporter port and host count", () => {
  it("first start: seeds the demo against the exporter on the first port", async () => {
    const first = await startExporter(1);
    const out = seedDemo(first, 1);
    expect(out).toMatch(/demo seeded in/);
    await scrapeOnce();
    const hosts = await db.host.findMany();
    expect(hosts.map((h) => [h.hostname, h.state, h.target])).toEqual([
      [fleet.hosts[0]?.hostname, "up", `${first.base}/hosts/0/metrics`],
    ]);
    await stopExporter(first);
  }, 180_000);

  it("second start, another port and 3 hosts: all hosts up, no exporter_down alert", async () => {
    const second = await startExporter(3);
    const out = seedDemo(second, 3);
    expect(out).toMatch(/pointed 1 hosts at the exporter/);
    const added = fleet.hosts.slice(1).map((h) => h.hostname);
    expect(out).toContain(`added ${added.join(", ")}`);
    await scrapeOnce();
    const hosts = await db.host.findMany({ include: { gpus: true }, orderBy: { hostname: "asc" } });
    expect(hosts).toHaveLength(3);
    for (const spec of fleet.hosts) {
      const h = hosts.find((x) => x.hostname === spec.hostname);
      expect(h?.state, spec.hostname).toBe("up");
      expect(h?.lastError).toBe(null);
      expect(h?.target).toBe(`${second.base}/hosts/${spec.id}/metrics`);
      expect(h?.gpus.filter((g) => g.parentUuid === null)).toHaveLength(spec.gpus.length);
    }
    expect(await openAlerts("exporter_down")).toEqual([]);
  }, 180_000);

  it("third start with 2 hosts: the third is retired, its ledger kept, nothing alerts", async () => {
    const gone = fleet.hosts[2]?.hostname ?? "";
    const goneId = (await db.host.findUniqueOrThrow({ where: { hostname: gone } })).id;
    const ledger = await db.usageHour.count({ where: { hostId: goneId } });
    expect(ledger).toBeGreaterThan(0);
    // its GPUs 4-7 are empty_idle in the simulator: idle alerts are open for it now
    const idle = (await openAlerts("idle")).filter((a) => a.hostId === goneId);
    expect(idle.length).toBeGreaterThan(0);

    const third = await startExporter(2);
    const out = seedDemo(third, 2);
    expect(out).toMatch(new RegExp(`retired ${gone}`));
    await scrapeOnce();
    const hosts = await db.host.findMany({ orderBy: { hostname: "asc" } });
    expect(hosts.map((h) => [h.hostname, h.state])).toEqual(
      fleet.hosts.map((h) => [h.hostname, h.hostname === gone ? "retired" : "up"]),
    );
    expect(await db.usageHour.count({ where: { hostId: goneId } })).toBe(ledger);
    // the tick's evaluation resolved its alerts; none is about a host not reporting
    expect((await openAlerts()).filter((a) => a.hostId === goneId)).toEqual([]);
    expect(await openAlerts("exporter_down")).toEqual([]);
    // an hour later the retired host is still silent, and still does not alert
    await evaluateAlerts(db, {
      now: new Date(Date.now() + 3600_000),
      metrics: createEmbeddedSource(db, 15),
      intervalS: 15,
    });
    expect((await openAlerts()).filter((a) => a.hostId === goneId)).toEqual([]);
    const later = await openAlerts("exporter_down");
    expect(later.length).toBe(2); // the two live hosts, not scraped in that hour
  }, 180_000);
});
