import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "../../../exporter/server.ts";
import {
  hasPrometheus,
  startPrometheus,
  type RunningPrometheus,
} from "../../testing/prometheus.ts";
import { createPromClient, type PromClient, type RangeMatrix } from "./api.ts";
import { recordedOrRaw } from "./source.ts";
import {
  FLEET_EXPRS,
  FLEET_RECORDED,
  GPU_EVENT_EXPRS,
  GPU_EVENT_RECORDED,
  RULES,
  rulesYaml,
} from "./recording-rules.ts";
import { scrapeConfigYaml } from "../../ingest/scrape-config.ts";

const RULES_FILE = fileURLToPath(
  new URL("../../../deploy/prometheus/gpufleet-rules.yml", import.meta.url),
);
const PROMTOOL = process.env.PROMTOOL_BIN ?? "/usr/bin/promtool";
const hasPromtool = existsSync(PROMTOOL);
if (!hasPromtool)
  console.warn(
    "NOTICE: promtool not found; skipping `promtool check rules` (apt-get install prometheus)",
  );
if (!hasPrometheus)
  console.warn(
    "NOTICE: /usr/bin/prometheus not found; skipping the recording rules integration test",
  );

describe("recording rules", () => {
  it("are committed as generated (else `npm run -s prometheus:rules > deploy/prometheus/gpufleet-rules.yml`)", () => {
    expect(readFileSync(RULES_FILE, "utf8")).toBe(rulesYaml());
  });

  it("are what the compose Prometheus loads (with the alert rules), with the printed scrape config", () => {
    const compose = fileURLToPath(
      new URL("../../../deploy/prometheus/prometheus.yml", import.meta.url),
    );
    expect(readFileSync(compose, "utf8")).toBe(
      scrapeConfigYaml({
        httpSdUrl: "http://exporter-sim:9445/targets.json",
        ruleFiles: ["/etc/prometheus/gpufleet-rules.yml", "/etc/prometheus/gpufleet-alerts.yml"],
      }),
    );
  });

  it.skipIf(!hasPromtool)("pass promtool check rules", () => {
    const out = execFileSync(PROMTOOL, ["check", "rules", RULES_FILE], { encoding: "utf8" });
    expect(out).toMatch(`SUCCESS: ${RULES.length} rules found`);
  });

  it.skipIf(!hasPromtool)("load from the printed scrape config (promtool check config)", () => {
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-promcfg-"));
    writeFileSync(join(dir, "targets.json"), "[]");
    const config = join(dir, "prometheus.yml");
    writeFileSync(
      config,
      scrapeConfigYaml({ targetFiles: [join(dir, "targets.json")], ruleFiles: [RULES_FILE] }),
    );
    const r = spawnSync(PROMTOOL, ["check", "config", config], { encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(`SUCCESS: ${RULES.length} rules found`);
  });
});

describe("recordedOrRaw", () => {
  const from = new Date(Date.UTC(2026, 10, 1, 0, 0));
  const to = new Date(from.getTime() + 600_000);
  const series = (startS: number, endS: number, v: string): RangeMatrix => {
    const values: [number, string][] = [];
    for (let t = startS; t <= endS; t += 60) values.push([t, v]);
    return values.length ? [{ metric: {}, values }] : [];
  };
  const fake = (recordedFromS: number | null) => {
    const calls: string[] = [];
    const client: PromClient = {
      query: async () => [],
      queryRange: async (q, a, b) => {
        calls.push(q);
        const [s, e] = [a.getTime() / 1000, b.getTime() / 1000];
        if (q.startsWith("gpufleet:"))
          return recordedFromS === null ? [] : series(Math.max(s, recordedFromS), e, "r");
        return series(s, e, "raw");
      },
    };
    return { client, calls };
  };
  const fromS = from.getTime() / 1000;

  it("reads only the recorded series when it covers the range", async () => {
    const { client, calls } = fake(fromS - 3600);
    const m = await recordedOrRaw(client, "gpufleet:x", "avg(x)", { from, to }, 60);
    expect(m[0]?.values.every(([, v]) => v === "r")).toBe(true);
    expect(calls).toEqual(["gpufleet:x"]);
  });

  it("falls back to the raw expression when nothing is recorded", async () => {
    const { client } = fake(null);
    const m = await recordedOrRaw(client, "gpufleet:x", "avg(x)", { from, to }, 60);
    expect(m[0]?.values).toHaveLength(11);
    expect(m[0]?.values.every(([, v]) => v === "raw")).toBe(true);
  });

  it("fills the part before the rule existed from the raw expression", async () => {
    const { client } = fake(fromS + 300);
    const m = await recordedOrRaw(client, "gpufleet:x", "avg(x)", { from, to }, 60);
    expect(m[0]?.values.map(([t, v]) => `${t - fromS}:${v}`)).toEqual([
      "0:raw",
      "60:raw",
      "120:raw",
      "180:raw",
      "240:raw",
      "300:r",
      "360:r",
      "420:r",
      "480:r",
      "540:r",
      "600:r",
    ]);
  });
});

let exporter: RunningExporter;
let prom: RunningPrometheus;

describe.skipIf(!hasPrometheus)("recording rules in a real Prometheus", () => {
  beforeAll(async () => {
    exporter = await startExporter({
      simulate: true,
      simulateHosts: 3,
      simulateSeed: 11,
      listenAddress: "127.0.0.1:0",
      intervalMs: 1000,
      logLevel: "error",
    });
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-rules-"));
    const targets = join(dir, "targets.json");
    writeFileSync(targets, await (await fetch(`${exporter.url}/targets.json`)).text());
    prom = await startPrometheus({
      targetFiles: [targets],
      scrapeInterval: "1s",
      ruleFiles: [RULES_FILE],
    });
  }, 60_000);

  afterAll(async () => {
    await prom?.stop();
    await exporter?.close();
  });

  it("record the same values as the raw expressions", async () => {
    const client = createPromClient(prom.url);
    const deadline = Date.now() + 30_000;
    while ((await client.query(FLEET_RECORDED.gpusReporting)).length === 0) {
      if (Date.now() > deadline) throw new Error("no recorded series after 30 s");
      await new Promise((r) => setTimeout(r, 500));
    }
    const value = async (q: string) => Number((await client.query(q))[0]?.value[1] ?? NaN);
    // The first rule evaluations can run before Prometheus has scraped every target once: wait
    // until the recorded count has caught up with the raw one.
    await expect
      .poll(
        async () =>
          (await value(FLEET_RECORDED.gpusReporting)) === (await value(FLEET_EXPRS.gpusReporting)),
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(true);
    expect(await value(FLEET_RECORDED.gpusReporting)).toBeGreaterThan(0);
    const util = await value(FLEET_RECORDED.utilization);
    expect(util).toBeGreaterThanOrEqual(0);
    expect(util).toBeLessThanOrEqual(1);
    expect(await value(FLEET_RECORDED.memoryUsed)).toBeGreaterThan(0);
    // the per-host rules catch up target by target too (the fleet count can agree earlier)
    const hostSeries = async () => await client.query("gpufleet:host_utilization:avg");
    await expect
      .poll(async () => (await hostSeries()).length, { timeout: 30_000, interval: 1000 })
      .toBe(3);
    const perHost = await hostSeries();
    expect(perHost.every((s) => (s.metric.hostname ?? "") !== "")).toBe(true);
  });

  it("record the per-GPU clock-event series as the raw expressions give them", async () => {
    const client = createPromClient(prom.url);
    // Both sides at one rule evaluation's timestamp, so they read the same scraped samples.
    const byGpu = async (q: string, at: Date) =>
      (await client.query(q, at))
        .map((s) => `${s.metric.instance}|${s.metric.uuid}=${s.value[1]}`)
        .sort();
    const agree = async () => {
      const last = await client.query(`max(timestamp(${GPU_EVENT_RECORDED.any}))`);
      const ts = Number(last[0]?.value[1]);
      if (!Number.isFinite(ts)) return false;
      const at = new Date(ts * 1000);
      for (const k of ["thermal", "power", "any"] as const) {
        const rec = await byGpu(GPU_EVENT_RECORDED[k], at);
        const raw = await byGpu(GPU_EVENT_EXPRS[k], at);
        if (raw.length === 0 || rec.join() !== raw.join()) return false;
      }
      const gpus = (await byGpu(GPU_EVENT_EXPRS.any, at)).length;
      const fleet = await client.query(GPU_EVENT_RECORDED.fleetCount, at);
      return fleet[0]?.value[1] === String(gpus);
    };
    await expect.poll(agree, { timeout: 30_000, interval: 1000 }).toBe(true);
  });
});
