import "../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../exporter/log.ts";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { runPolicyJob } from "../policies/job.ts";
import { listScaleSignals } from "../policies/scale.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { DEMO_SCALE_POLICY } from "./policies.ts";
import { seedDemo } from "./seed.ts";

// The demo's scale policy on a seeded demo store: in dry run on the simulated cloud, over the
// llm-pretrain project. On the simulator's own minutes (the seed writes the last hours minute by
// minute, as the collector would have), once the hosts are up the first tick lists a would-be
// scale-out for a busy training pool with its figures, and the cool-down holds the next one back.

// pinned mid-month, mid-day (no boundary in any window)
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

describe("the demo's scale policy", () => {
  const tick = (now: Date) => runPolicyJob({ db, now, metrics: createEmbeddedSource(db, 15) });

  it("is seeded in dry run, on the simulated cloud, over llm-pretrain", async () => {
    const p = await db.policy.findUniqueOrThrow({ where: { name: DEMO_SCALE_POLICY } });
    expect(p).toMatchObject({
      kind: "scale",
      mode: "dry_run",
      executor: "simulated",
      scopeKind: "project",
      scopeValue: "llm-pretrain",
      enabled: true,
    });
    expect(JSON.parse(p.scale ?? "null")).toMatchObject({
      highMark: 0.8,
      highMinutes: 15,
      cooldownMinutes: 60,
      min: 1,
      max: 4,
    });
  });

  it("lists a would-be scale-out of a busy training pool once the hosts are up", async () => {
    // before the collector's first scrape no host is up: nothing is signalled
    expect((await tick(NOW)).signals).toBe(0);
    // the collector's first scrape marks them up
    await db.host.updateMany({ data: { state: "up", lastSeen: NOW } });
    const r = await tick(at(1));
    expect(r).toMatchObject({ scaled: 0, scaleFailed: 0 });
    expect(r.signals).toBeGreaterThan(0);
    const { signals } = await listScaleSignals(null, db);
    expect(signals.length).toBe(r.signals);
    const training = [
      "type:p4d.24xlarge|team:research",
      "type:p5en.48xlarge|team:research",
      "type:a3-highgpu-8g|team:research",
    ];
    for (const s of signals) {
      expect(s).toMatchObject({
        policyName: DEMO_SCALE_POLICY,
        mode: "dry_run",
        direction: "out",
        state: "recorded",
        hosts: 1,
        fromSize: 1,
        toSize: 2,
        at: at(1).toISOString(),
      });
      expect(training).toContain(s.pool);
      expect(s.share).toBeGreaterThanOrEqual(0.9);
      expect(s.share).toBeLessThanOrEqual(1);
    }
    // the p5.48xlarge pool (one GPU of eight held idle) is in scope but never busy enough
    expect(signals.map((s) => s.pool)).not.toContain("type:p5.48xlarge|team:research");
    // no pool outside llm-pretrain, and nothing was called: a dry run only records
    expect(await db.auditEvent.count({ where: { action: { startsWith: "policy.scale" } } })).toBe(
      0,
    );
  });

  it("holds the next signal of a pool for the hour's cool-down", async () => {
    const before = (await listScaleSignals(null, db)).signals.map((s) => s.pool);
    for (const m of [15, 30, 45]) await tick(at(m));
    const after = (await listScaleSignals(null, db)).signals;
    const again = after.filter((s) => s.at !== at(1).toISOString() && before.includes(s.pool));
    expect(again).toEqual([]);
  });
});
