import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import { discoverFromPrometheus } from "../ingest/discover-prometheus.ts";
import type { Db } from "../db.ts";
import { createPromClient } from "../metrics/prometheus/api.ts";
import { hasPrometheus, startPrometheus, type RunningPrometheus } from "../testing/prometheus.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";
import { createPrometheusSource } from "../metrics/prometheus/source.ts";

// Prometheus mode end to end: the simulated demo hosts scraped by a real Prometheus, the alert
// rules' *_over_time queries run against it, and the idle rule tells held from empty GPUs.

let db: Db;
let exporter: RunningExporter;
let prom: RunningPrometheus;

describe.skipIf(!hasPrometheus)("alert rules on a real Prometheus", () => {
  beforeAll(async () => {
    db = makeTestDb().db;
    // seed 42, hosts 1-2: a p5 with one held-but-idle GPU (7) and a p5 with four empty ones (4-7)
    exporter = await startExporter({
      simulate: true,
      simulateHosts: 3,
      simulateSeed: 42,
      listenAddress: "127.0.0.1:0",
      intervalMs: 1000,
      logLevel: "error",
    });
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-alerts-prom-"));
    const targetsFile = join(dir, "targets.json");
    writeFileSync(targetsFile, await (await fetch(`${exporter.url}/targets.json`)).text());
    prom = await startPrometheus({ targetFiles: [targetsFile], scrapeInterval: "1s" });
    // Wait for data, not for a fixed time: on a loaded machine Prometheus's first scrapes come
    // late, and a 60 s window with only a few seconds of samples can hold no 15 s subquery step
    // (throttleCoverage 0). Every target needs 20 s of scrapes before the tests read. Successful
    // scrapes, that is: `up` is recorded for a failed scrape too (as 0), and with a 1 s interval the
    // scrape timeout is 1 s, which a loaded machine misses; counting `up` samples let the tests read
    // while two of the three hosts had no GPU series in the window (8 GPUs found instead of 24).
    const client = createPromClient(prom.url);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const counts = await client.query("sum_over_time(up[60s])");
      if (counts.length === 3 && counts.every((c) => Number(c.value[1]) >= 20)) break;
      if (Date.now() > deadline)
        throw new Error(`Prometheus has too few scrapes: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await discoverFromPrometheus(db, client);
  }, 120_000);

  afterAll(async () => {
    await prom?.stop();
    await exporter?.close();
    await db?.$disconnect();
  });

  it("every window query parses and returns per-GPU statistics", async () => {
    const now = new Date();
    const stats = await createPrometheusSource(db, prom.url, createPromClient(prom.url)).gpuWindow(
      new Date(now.getTime() - 60_000),
      now,
    );
    expect(stats.length).toBe(8 + 8 + 8);
    for (const s of stats) {
      expect(s.utilCoverage).toBeGreaterThan(0.5);
      expect(s.utilMax).not.toBeNull();
      expect(s.memTotalBytes).toBeGreaterThan(0);
      expect(s.eccUncorrectedIncrease).toBe(0);
      expect(s.throttleCoverage).toBeGreaterThan(0);
      expect(s.lastAt).not.toBeNull();
    }
  });

  it("fires held-but-idle and empty alerts from Prometheus data", async () => {
    await db.alertRule.create({
      data: { name: "Idle", kind: "idle", params: JSON.stringify({ durationMinutes: 1 }) },
    });
    const now = new Date();
    const r = await evaluateAlerts(db, {
      now,
      metrics: createPrometheusSource(db, prom.url, createPromClient(prom.url)),
      intervalS: 1,
    });
    expect(r.errors).toEqual([]);
    const alerts = await db.alert.findMany();
    const hostOf = new Map((await db.host.findMany()).map((h) => [h.id, h.hostname]));
    const gpus = new Map((await db.gpu.findMany()).map((g) => [g.uuid, g.index]));
    const seen = alerts
      .map((a) => [
        hostOf.get(a.hostId ?? ""),
        gpus.get(a.gpuUuid ?? ""),
        JSON.parse(a.details).idleKind,
      ])
      .sort();
    expect(seen).toEqual([
      ["gpu-aws-use1-002", 7, "held"],
      ["gpu-aws-usw2-003", 4, "empty"],
      ["gpu-aws-usw2-003", 5, "empty"],
      ["gpu-aws-usw2-003", 6, "empty"],
      ["gpu-aws-usw2-003", 7, "empty"],
    ]);
  });
});
