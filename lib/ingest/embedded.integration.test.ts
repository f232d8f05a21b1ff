import { createServer } from "node:net";
import { embeddedBackend } from "../metrics/backend.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { createCollector, type Collector } from "../jobs/loop.ts";
import { syncTargets } from "./sync-targets.ts";
import { parseHolderMemories } from "../core/holders.ts";
import { embeddedHourSamples } from "../metrics/embedded/hour-samples.ts";

// The embedded pipeline end to end: simulated exporters → scrape → store → source reads.

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const addr = srv.address();
  await new Promise((r) => srv.close(r));
  return typeof addr === "object" && addr ? addr.port : 1;
}

let db: Db;
let exporter: RunningExporter;
let collector: Collector;
const HOSTS = 3;
const fleet = buildFleet({ seed: 42, hosts: HOSTS });

beforeAll(async () => {
  db = makeTestDb().db;
  exporter = await startExporter({
    simulate: true,
    simulateHosts: HOSTS,
    simulateSeed: 42,
    listenAddress: "127.0.0.1:0",
    intervalMs: 200,
    logLevel: "error",
  });
  const dead = `http://127.0.0.1:${await closedPort()}/metrics`;
  const targets = fleet.hosts.map((h) => ({
    url: `${exporter.url}/hosts/${h.id}/metrics`,
    labels: {},
  }));
  await syncTargets(db, [...targets, { url: dead, labels: { hostname: "gone-host" } }], "file_sd");
  collector = createCollector(db, {
    intervalS: 1,
    metrics: embeddedBackend(db, 1),
    scrapeTimeoutMs: 2000,
    scrapeConcurrency: 4,
    retentionDays: 7,
    autoStart: false,
    log: () => {},
  });
  for (let i = 0; i < 3; i++) {
    await collector.tick();
    await new Promise((r) => setTimeout(r, 300));
  }
});

afterAll(async () => {
  collector.stop();
  await exporter.close().catch(() => {});
  await db.$disconnect();
});

describe("embedded collection", () => {
  it("learns each host's identity and attribution from gpu_host_info", async () => {
    const hosts = await db.host.findMany({ orderBy: { hostname: "asc" } });
    for (const spec of fleet.hosts) {
      const h = hosts.find((x) => x.hostname === spec.hostname);
      expect(h, spec.hostname).toBeDefined();
      expect(h?.state).toBe("up");
      expect(h?.team).toBe(spec.team);
      expect(h?.project).toBe(spec.project);
      expect(h?.instanceType).toBe(spec.instanceType);
      expect(h?.pricingModel).toBe(spec.pricingModel);
    }
  });

  it("marks an unreachable target down with the reason, without failing the others", async () => {
    const gone = await db.host.findUnique({ where: { hostname: "gone-host" } });
    expect(gone?.state).toBe("down");
    expect(gone?.lastError).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it("stores the GPU inventory and minute aggregates", async () => {
    const expected = fleet.hosts.reduce((n, h) => n + h.gpus.length, 0);
    expect(await db.gpu.count({ where: { parentUuid: null } })).toBe(expected);
    const minutes = await db.gpuMinute.findMany();
    expect(minutes.length).toBeGreaterThanOrEqual(expected - 1);
    expect(minutes.some((m) => m.util !== null && m.util > 0.5)).toBe(true);
    const up = await db.hostMinute.findMany();
    expect(up.filter((m) => m.upSamples > 0).length).toBeGreaterThanOrEqual(HOSTS);
  });

  it("serves current GPUs and a fleet series through the embedded source", async () => {
    const source = createEmbeddedSource(db, 1);
    const gpus = await source.currentGpus();
    const live = gpus.filter((g) => g.reporting);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((g) => g.memTotalBytes !== null && g.memTotalBytes > 0)).toBe(true);
    const now = new Date();
    const series = await source.fleetSeries({
      from: new Date(now.getTime() - 3600_000),
      to: new Date(now.getTime() + 60_000),
      maxPoints: 100,
    });
    expect(series.util.length).toBeGreaterThan(0);
    expect((await source.health()).ok).toBe(true);
  });

  it("keeps who holds each GPU: per process on the host, per minute in the store (issue 24)", async () => {
    const busy = await db.gpuMinute.findMany({ where: { processes: { gt: 0 } } });
    expect(busy.length).toBeGreaterThan(0);
    // every GPU-minute with a process names its holders, and the ledger's reader returns them
    expect(busy.filter((m) => parseHolderMemories(m.holders).length === 0)).toEqual([]);
    const users = new Set(
      busy.flatMap((m) => parseHolderMemories(m.holders).map((h) => h.holder.user)),
    );
    expect([...users].some((u) => u === "alice" || u === "bob" || u === "carol")).toBe(true);
    const host = await db.host.findFirstOrThrow({ where: { hostname: fleet.hosts[0]?.hostname } });
    const procs = await createEmbeddedSource(db, 1).processes(host.id);
    expect(procs.length).toBeGreaterThan(0);
    expect(procs.every((p) => p.holder?.user)).toBe(true);
    const now = Date.now();
    const samples = await embeddedHourSamples(db, new Date(now - 3600_000), new Date(now + 60_000));
    const held = [...samples.values()]
      .flat()
      .flatMap((s) => s.gpus.flatMap((g) => g.holders ?? []));
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((h) => h.memBytes >= 0 && h.holder.kind.length > 0)).toBe(true);
  });

  it("shows a stopped exporter as not reporting on the next collection", async () => {
    await exporter.close();
    await collector.tick();
    const hosts = await db.host.findMany({
      where: { hostname: { in: fleet.hosts.map((h) => h.hostname) } },
    });
    expect(hosts.every((h) => h.state === "down")).toBe(true);
    const gpus = await createEmbeddedSource(db, 1).currentGpus();
    expect(gpus.filter((g) => g.reporting)).toHaveLength(0);
  });
});
