import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "@/exporter/server.ts";
import { evaluateAlerts } from "@/lib/alerts/evaluate-rules.ts";
import type { Db } from "@/lib/db.ts";
import { discoverFromPrometheus } from "@/lib/ingest/discover-prometheus.ts";
import { createPromClient } from "@/lib/metrics/prometheus/api.ts";
import { createPrometheusSource } from "@/lib/metrics/prometheus/source.ts";
import type { MetricsSource, SourceHealth } from "@/lib/metrics/source.ts";
import { RULE_KINDS } from "@/lib/zod/schemas/rule.ts";
import {
  hasPrometheus,
  startPrometheus,
  type RunningPrometheus,
} from "@/lib/testing/prometheus.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";

// Prometheus mode, Prometheus stopped for ten minutes. A real Prometheus scrapes two simulated
// hosts until the app has discovered them; then it is stopped and the app's collector steps
// (discovery, alert evaluation) run 40 ticks of 15 s at pinned times T0 + k·15 s: ten minutes
// of outage in a few seconds. Prometheus's own clock is the wall clock, so T0 is read once, when
// discovery first succeeds; every later time is derived from it.

const HOSTS = 2;
const INTERVAL_S = 15;
const OUTAGE_TICKS = 40; // ten minutes

let db: Db;
let exporter: RunningExporter;
let prom: RunningPrometheus;
let source: MetricsSource;
let t0: Date;
let before: SourceHealth;
let during: SourceHealth;
const discoveryErrors: string[] = [];
const evaluationErrors: string[] = [];

describe.skipIf(!hasPrometheus)(`Prometheus down for ten minutes (${testDbKind()})`, () => {
  beforeAll(async () => {
    db = makeTestDb().db;
    exporter = await startExporter({
      simulate: true,
      simulateHosts: HOSTS,
      simulateSeed: 14,
      listenAddress: "127.0.0.1:0",
      intervalMs: 1000,
      logLevel: "error",
    });
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-fault-prom-"));
    const targets = join(dir, "targets.json");
    writeFileSync(targets, await (await fetch(`${exporter.url}/targets.json`)).text());
    prom = await startPrometheus({ targetFiles: [targets], scrapeInterval: "1s" });
    const client = createPromClient(prom.url);
    source = createPrometheusSource(db, prom.url, client);
    // the app's rules: idle GPUs and silent exporters, as a fresh install would have them
    await db.alertRule.create({ data: { name: "Idle", kind: "idle" } });
    await db.alertRule.create({ data: { name: "Exporter down", kind: "exporter_down" } });
    await db.alertRule.create({
      data: { name: "Metrics backend down", kind: "metrics_backend_down" },
    });
    for (let i = 0; i < 100; i++) {
      const now = new Date();
      if ((await discoverFromPrometheus(db, client, now).catch(() => 0)) === HOSTS) {
        t0 = now;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(t0, "Prometheus never showed both hosts").toBeDefined();
    before = await source.health();
    await prom.stop();
    for (let k = 1; k <= OUTAGE_TICKS; k++) {
      const now = new Date(t0.getTime() + k * INTERVAL_S * 1000);
      await discoverFromPrometheus(db, client, now).catch((e: Error) =>
        discoveryErrors.push(e.message),
      );
      const r = await evaluateAlerts(db, { now, metrics: source, intervalS: INTERVAL_S });
      evaluationErrors.push(...r.errors);
    }
    during = await source.health();
  }, 90_000);

  afterAll(async () => {
    await prom?.stop();
    await exporter?.close().catch(() => {});
    await db?.$disconnect();
  });

  it("health says the backend is unavailable and since when", () => {
    expect(before).toMatchObject({ ok: true, error: null });
    expect(during.ok).toBe(false);
    expect(during.error).toMatch(/ECONNREFUSED|unreachable|connect/i);
    expect(during.error).toContain(prom.url.replace("http://", ""));
    // "since": the last time it answered, at or before the outage began
    expect(during.lastSuccess).not.toBeNull();
    expect(during.lastSuccess?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(during.lastSuccess?.getTime()).toBeGreaterThanOrEqual(t0.getTime() - 1000);
    expect(discoveryErrors).toHaveLength(OUTAGE_TICKS);
  });

  it("the outage opens no idle alert and leaves the hosts as they were", async () => {
    expect(await db.alert.count({ where: { kind: "idle" } })).toBe(0);
    const hosts = await db.host.findMany();
    expect(hosts).toHaveLength(HOSTS);
    // the idle rule could not read its window: an error each tick, never "no samples, so idle"
    expect(evaluationErrors).toHaveLength(OUTAGE_TICKS);
    for (const e of evaluationErrors) expect(e).toMatch(/^Idle: Prometheus unreachable at /);
  });

  // In Prometheus mode a host's lastSeen only moves when discovery succeeds, so without the
  // backend probe an outage would read as every exporter going silent. The probe makes it an
  // explicit outcome: exporter_down is held while the backend is down (lib/alerts/backend-state.ts).
  it("the outage itself opens no exporter-down alert", async () => {
    expect(await db.alert.count({ where: { kind: "exporter_down" } })).toBe(0);
  });

  it("the outage opens exactly one 'metrics backend down' health alert", async () => {
    const kinds: readonly string[] = RULE_KINDS;
    expect(kinds).toContain("metrics_backend_down");
    expect(await db.alert.count({ where: { kind: "metrics_backend_down" } })).toBe(1);
    const a = await db.alert.findFirstOrThrow({ where: { kind: "metrics_backend_down" } });
    // fleet-wide, critical, still firing; opened once the probe had failed for more than two
    // intervals (from the first failed tick at T0 + 15 s: the fourth one, T0 + 60 s)
    expect(a).toMatchObject({ state: "firing", severity: "critical", hostId: null, team: null });
    expect(a.startsAt.getTime()).toBe(t0.getTime() + 4 * INTERVAL_S * 1000);
    const since = new Date(t0.getTime() + INTERVAL_S * 1000).toISOString();
    expect(a.summary).toContain(`unreachable since ${since}`);
    expect(a.summary).toContain(prom.url.replace("http://", ""));
    expect(a.summary).toContain("held until it answers: Idle, Exporter down");
  });
});
