import { mkdtempSync, writeFileSync } from "node:fs";
import { embeddedBackend } from "./backend.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import { computeHostHour } from "../ledger/ledger-math.ts";
import { holderShares } from "../ledger/holder-split.ts";
import { holderKey } from "../core/holders.ts";
import type { HostSample } from "../ledger/ledger-types.ts";
import type { Db } from "../db.ts";
import { createPromClient } from "./prometheus/api.ts";
import { createPrometheusSource } from "./prometheus/source.ts";
import { readTargetsFile } from "../ingest/targets.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { hasPrometheus, startPrometheus, type RunningPrometheus } from "../testing/prometheus.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { discoverFromPrometheus } from "../ingest/discover-prometheus.ts";
import { embeddedHourSamples } from "./embedded/hour-samples.ts";
import { promHourSamples } from "./prometheus/hour-samples.ts";
import { createCollector, type Collector } from "../jobs/loop.ts";
import { syncTargets } from "../ingest/sync-targets.ts";

// The same simulated exporters, collected by the embedded collector and by a real Prometheus,
// must give the same minute samples and so the same ledger. Needs about two minutes of wall
// time: both must cover one whole minute.

if (!hasPrometheus)
  console.warn(
    "NOTICE: /usr/bin/prometheus not found; skipping the Prometheus agreement test (apt-get install prometheus)",
  );

const HOSTS = 4;
let db: Db;
let exporter: RunningExporter;
let prom: RunningPrometheus;
let collector: Collector;
let stopTicking = false;
let window: { from: number; to: number };

describe.skipIf(!hasPrometheus)("embedded and prometheus sources agree", () => {
  beforeAll(async () => {
    db = makeTestDb().db;
    await installShippedCatalogue(db);
    exporter = await startExporter({
      simulate: true,
      simulateHosts: HOSTS,
      simulateSeed: 7,
      listenAddress: "127.0.0.1:0",
      intervalMs: 1000,
      logLevel: "error",
    });
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-agree-"));
    const targetsFile = join(dir, "targets.json");
    writeFileSync(targetsFile, await (await fetch(`${exporter.url}/targets.json`)).text());
    prom = await startPrometheus({ targetFiles: [targetsFile], scrapeInterval: "1s" });
    await syncTargets(db, await readTargetsFile(targetsFile), "file_sd");
    collector = createCollector(db, {
      intervalS: 1,
      metrics: embeddedBackend(db, 1),
      scrapeTimeoutMs: 1000,
      scrapeConcurrency: 4,
      retentionDays: 7,
      autoStart: false,
      log: () => {},
    });
    const started = Date.now();
    const first = started + 3000 - ((started + 3000) % 60_000) + 60_000; // first whole minute both see
    window = { from: first, to: first + 60_000 };
    void (async () => {
      while (!stopTicking) {
        await collector.tick();
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    await new Promise((r) => setTimeout(r, window.to + 5000 - Date.now()));
  }, 180_000);

  afterAll(async () => {
    stopTicking = true;
    collector?.stop();
    await prom?.stop();
    await exporter?.close();
    await db?.$disconnect();
  });

  it("discovers the same hosts and GPUs from Prometheus", async () => {
    const client = createPromClient(prom.url);
    expect(await discoverFromPrometheus(db, client)).toBe(HOSTS);
    expect(await db.host.count()).toBe(HOSTS);
    const source = createPrometheusSource(db, prom.url, client);
    const gpus = await source.currentGpus();
    const stored = await db.gpu.findMany({ where: { parentUuid: null } });
    expect(new Set(gpus.filter((g) => !g.parentUuid).map((g) => g.uuid))).toEqual(
      new Set(stored.map((g) => g.uuid)),
    );
    expect(gpus.every((g) => g.reporting)).toBe(true);
  });

  it("gives the same minute samples and the same ledger money", async () => {
    const hosts = await db.host.findMany();
    const ids = new Map(hosts.map((h) => [h.hostname, h.id]));
    const from = new Date(window.from);
    const to = new Date(window.to);
    const embedded = await embeddedHourSamples(db, from, to);
    const fromProm = await promHourSamples(createPromClient(prom.url), ids, from, to);
    const prices = await loadPriceRows(db);
    let heldGpus = 0;
    const hourStart = new Date(window.from - (window.from % 3_600_000));
    const inWindow = (list: HostSample[] | undefined) =>
      (list ?? []).filter((s) => s.t.getTime() >= window.from && s.t.getTime() < window.to);
    for (const host of hosts) {
      const a = inWindow(embedded.get(host.id));
      const b = inWindow(fromProm.get(host.id));
      expect(
        a.map((s) => s.t.getTime()),
        host.hostname,
      ).toEqual(b.map((s) => s.t.getTime()));
      expect(a.length).toBe(1);
      const [sa, sb] = [a[0], b[0]];
      expect(sa?.up).toBe(true);
      expect(sb?.up).toBe(true);
      const byUuid = new Map((sb?.gpus ?? []).map((g) => [g.uuid, g]));
      expect(new Set(sa?.gpus.map((g) => g.uuid))).toEqual(new Set(byUuid.keys()));
      for (const g of sa?.gpus ?? []) {
        const other = byUuid.get(g.uuid);
        if (g.util === null) expect(other?.util ?? null).toBeNull();
        else expect(Math.abs(g.util - (other?.util ?? -1))).toBeLessThan(0.05);
        expect(other?.memTotalBytes).toBe(g.memTotalBytes);
        // who held it (issue 24): the same holders from the store's minutes and from PromQL
        const keys = (x: typeof g | undefined) =>
          (x?.holders ?? []).map((h) => holderKey(h.holder)).sort();
        expect(keys(other), g.uuid).toEqual(keys(g));
        heldGpus += keys(g).length > 0 ? 1 : 0;
      }
      const price = lookupPrice(prices, { ...host, at: hourStart });
      const rowsA = computeHostHour({ hourStart, host, price, samples: a, intervalSeconds: 60 });
      const rowsB = computeHostHour({ hourStart, host, price, samples: b, intervalSeconds: 60 });
      expect(rowsA.map((r) => [r.gpuKey, r.upSeconds, r.costMicros])).toEqual(
        rowsB.map((r) => [r.gpuKey, r.upSeconds, r.costMicros]),
      );
      expect(rowsA[0]?.upSeconds).toBe(60);
      const shares = (rows: typeof rowsA, samples: HostSample[]) =>
        holderShares(rows, samples, hourStart, 60).map((x) => [
          x.gpuKey,
          x.holderKey,
          x.costMicros,
        ]);
      expect(shares(rowsA, a)).toEqual(shares(rowsB, b));
    }
    expect(heldGpus).toBeGreaterThan(0);
  });
});
