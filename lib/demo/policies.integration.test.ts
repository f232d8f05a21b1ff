import "../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../exporter/log.ts";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { runPolicyJob } from "../policies/job.ts";
import { listPlannedActions } from "../policies/plan.ts";
import { policySavings } from "../policies/savings.ts";
import { startStoppedHost } from "../policies/start-host.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { seedDemo } from "./seed.ts";

// The demo's policies on a seeded demo store with the simulator exporter running: from the first
// tick the fleet policy (dry run) lists what it would stop and the $ it would save; the active
// demo policy warns, then stops the empty V100 at the simulated cloud (its exporter answers 503),
// and the stop shows as realized savings.

// pinned mid-month, so the savings never straddle a month boundary
const NOW = new Date("2026-11-15T12:00:00Z");
const at = (min: number) => new Date(NOW.getTime() + min * 60_000);
let db: Db;
let exporter: RunningExporter;

beforeAll(async () => {
  const t = makeTestDb();
  db = t.db;
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 24,
    logger: silentLogger,
  });
  await seedDemo(db, {
    exporterBase: exporter.url,
    databaseUrl: t.url,
    hosts: 24,
    now: NOW,
    historyDays: 1,
    chartDays: 1,
  });
}, 180_000);
afterAll(async () => {
  await exporter.close();
  await db.$disconnect();
});

describe("the demo's idle-release policies", () => {
  const tick = (now: Date) => runPolicyJob({ db, now, metrics: createEmbeddedSource(db, 15) });

  it("are seeded: the fleet one in dry run, the V100 one active, both on the simulated cloud", async () => {
    // (the demo's scale policy has its own test: ./scale-policy.integration.test.ts)
    const ps = await db.policy.findMany({
      where: { kind: "idle_release" },
      orderBy: { name: "asc" },
    });
    expect(ps.map((p) => [p.name, p.mode, p.executor])).toEqual([
      ["Demo: release the empty V100", "active", "simulated"],
      ["Idle 24 h: stop (fleet)", "dry_run", "simulated"],
    ]);
  });

  it("the first tick lists the dry run's would-be stops with their $", async () => {
    await tick(NOW);
    const { actions } = await listPlannedActions(null, { client: db, now: NOW });
    const dry = actions.filter((a) => a.mode === "dry_run");
    expect(dry.map((a) => a.hostname)).toEqual(
      expect.arrayContaining(["gpu-aws-usw2-008", "gpu-aws-usw2-010"]),
    );
    // a partly idle host (4 of 8 GPUs empty) is never listed
    expect(dry.map((a) => a.hostname)).not.toContain("gpu-aws-usw2-003");
    expect(dry.every((a) => a.monthlySavingMicros !== null && a.action === "stop")).toBe(true);
  });

  it("the active demo policy warns, then stops the V100 at the simulated cloud", async () => {
    for (const m of [1, 2, 4, 6]) await tick(at(m));
    const v100 = await db.host.findUniqueOrThrow({ where: { hostname: "gpu-aws-usw2-010" } });
    const e = await db.policyEpisode.findFirstOrThrow({
      where: { hostId: v100.id, policy: { mode: "active" } },
    });
    // warned at the first tick (idle for over an hour already), stopped once the 2-minute grace passed
    expect(e).toMatchObject({ state: "acted", action: "stop", warnings: 2, lastWarnAt: NOW });
    expect(e.actedAt).toEqual(at(2));
    expect((await fetch(`${exporter.url}/hosts/9/metrics`)).status).toBe(503);
    expect((await fetch(`${exporter.url}/hosts/7/metrics`)).status).toBe(200);
    const s = await policySavings(null, { client: db, now: at(62) });
    expect(s.hosts.map((h) => [h.hostname, h.stoppedHours])).toEqual([["gpu-aws-usw2-010", 1]]);
    expect(e.hourlyMicros).toBeGreaterThan(0n);
    expect(BigInt(s.savedMicros)).toBe(e.hourlyMicros);
  });

  it("an admin starts it again: it answers, and the next pass ends the episode", async () => {
    const v100 = await db.host.findUniqueOrThrow({ where: { hostname: "gpu-aws-usw2-010" } });
    const audit = { actor: "admin@example.com", ip: null };
    await expect(startStoppedHost(v100.id, ["research"], audit, db)).rejects.toThrow(/host/);
    const other = await db.host.findUniqueOrThrow({ where: { hostname: "gpu-aws-usw2-008" } });
    await expect(startStoppedHost(other.id, null, audit, db)).rejects.toThrow(/not stopped/);
    expect(await startStoppedHost(v100.id, null, audit, db)).toMatchObject({ started: true });
    expect((await fetch(`${exporter.url}/hosts/9/metrics`)).status).toBe(200);
    expect(await db.auditEvent.count({ where: { action: "policy.start" } })).toBe(1);
    // the collector's next scrape marks it up again
    await db.host.update({ where: { id: v100.id }, data: { state: "up", lastSeen: at(70) } });
    expect((await tick(at(70))).resumed).toBe(1);
  });
});
