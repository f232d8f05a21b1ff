import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startExporter, type RunningExporter } from "../exporter/server.ts";
import {
  hasPrometheus,
  startPrometheus,
  type RunningPrometheus,
} from "../lib/testing/prometheus.ts";
import {
  dashboardQueries,
  metricNames,
  parseDashboard,
  parseLabelValues,
  substitute,
  variableQueries,
} from "./grafana/dashboard.ts";

// The shipped Grafana dashboard and alert rules, checked with the real tools: promtool checks
// and unit-tests the alerts; a real Prometheus scrapes the simulated fleet and answers every
// dashboard query and variable, and evaluates the alert rules without an error.

const DEPLOY = fileURLToPath(new URL(".", import.meta.url));
const ALERTS = join(DEPLOY, "prometheus/gpufleet-alerts.yml");
const ALERT_TESTS = join(DEPLOY, "prometheus/gpufleet-alerts.test.yml");
const DASHBOARD = parseDashboard(readFileSync(join(DEPLOY, "grafana/gpufleet.json"), "utf8"));
const PROMTOOL = process.env.PROMTOOL_BIN ?? "/usr/bin/promtool";
const hasPromtool = existsSync(PROMTOOL);
if (!hasPromtool)
  console.warn(
    "NOTICE: promtool not found; skipping the alert rule checks (apt-get install prometheus)",
  );
if (!hasPrometheus)
  console.warn("NOTICE: /usr/bin/prometheus not found; skipping the dashboard queries test");

/** Grafana's built-ins, as it would fill them for a 1 h range at a 1 s scrape interval. */
const BUILTINS = { __rate_interval: "1m", __interval: "15s", __range: "1h" };
/** Dashboard metrics the simulator does not serve (yet); their panels fall back to vector(0). */
const NOT_SIMULATED = new Set(["gpu_host_interruption_pending"]);
// 13 hosts: the simulator's first ones cover every profile (training, inference, held and empty
// idle, a faulty GPU, MIG on host 12). The exporter's clock is pinned below, so every scrape
// serves the same numbers whatever the time the test runs.
const HOSTS = 13;
const PINNED_NOW = Date.UTC(2026, 10, 3, 14, 0, 0);

describe.skipIf(!hasPromtool)("alert rules (promtool)", () => {
  const promtool = (...args: string[]) => spawnSync(PROMTOOL, args, { encoding: "utf8" });

  it("pass promtool check rules", () => {
    const r = promtool("check", "rules", ALERTS);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch("SUCCESS: 8 rules found");
  });

  it("pass their unit tests (promtool test rules)", () => {
    const r = promtool("test", "rules", ALERT_TESTS);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch("SUCCESS");
  });

  it("have a firing case and a silent case for every alert", () => {
    const rules = readFileSync(ALERTS, "utf8");
    const tests = readFileSync(ALERT_TESTS, "utf8");
    const names = [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1] ?? "");
    expect(names).toHaveLength(8);
    for (const name of names) {
      const cases = tests
        .split(/\n\s*- eval_time: /)
        .filter((c) => c.includes(`alertname: ${name}\n`));
      expect(
        cases.some((c) => /exp_alerts:\n\s+- exp_labels/.test(c)),
        `${name} fires`,
      ).toBe(true);
      expect(
        cases.some((c) => /exp_alerts: \[\]/.test(c)),
        `${name} stays silent`,
      ).toBe(true);
    }
  });

  it("report a broken expectation (the check can fail)", () => {
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-alerts-"));
    const broken = readFileSync(ALERT_TESTS, "utf8")
      .replace("rule_files:\n  - gpufleet-alerts.yml", `rule_files:\n  - ${ALERTS}`)
      .replace(
        "summary: GPU 1 on gpu-a stopped reporting",
        "summary: GPU 7 on gpu-a stopped reporting",
      );
    writeFileSync(join(dir, "t.yml"), broken);
    const r = promtool("test", "rules", join(dir, "t.yml"));
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch("alertname: GpuFellOffBus");
  });
});

let exporter: RunningExporter;
let prom: RunningPrometheus;

interface ApiAnswer {
  status: string;
  error?: string;
  data?: unknown;
}

async function api(path: string, params: Record<string, string>): Promise<unknown> {
  const res = await fetch(`${prom.url}${path}?${new URLSearchParams(params)}`);
  const body = (await res.json()) as ApiAnswer;
  if (body.status !== "success")
    throw new Error(`${path} ${JSON.stringify(params)}: ${body.error}`);
  return body.data;
}

async function instant(query: string): Promise<unknown[]> {
  const data = (await api("/api/v1/query", { query })) as { result: unknown[] };
  return data.result;
}

/** Polls without Date (it is pinned for the exporter) until `ok`, or fails after `ms`. */
async function waitFor(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > deadline) throw new Error(`${what}: not after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!hasPrometheus)("dashboard and alerts on a real Prometheus", () => {
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: PINNED_NOW });
    exporter = await startExporter({
      simulate: true,
      simulateHosts: HOSTS,
      simulateSeed: 42,
      listenAddress: "127.0.0.1:0",
      intervalMs: 1000,
      logLevel: "error",
    });
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-observability-"));
    const targets = join(dir, "targets.json");
    writeFileSync(targets, await (await fetch(`${exporter.url}/targets.json`)).text());
    prom = await startPrometheus({
      targetFiles: [targets],
      scrapeInterval: "1s",
      ruleFiles: [ALERTS],
    });
    // every target scraped successfully at least 3 times within a minute (sum of up, not count: a
    // failed scrape records up 0): rate() and increase() have data
    await waitFor("all targets scraped", async () => {
      const r = (await instant('count(sum_over_time(up{job="gpufleet"}[1m]) >= 3)')) as {
        value: [number, string];
      }[];
      return r[0]?.value[1] === String(HOSTS);
    });
  }, 60_000);

  afterAll(async () => {
    await prom?.stop();
    await exporter?.close();
    vi.useRealTimers();
  });

  /** Each variable's values, resolved in order like Grafana does (with every value selected). */
  async function variableValues(): Promise<Record<string, string[]>> {
    const values: Record<string, string[]> = {};
    for (const v of variableQueries(DASHBOARD)) {
      const { label, match } = parseLabelValues(v.query);
      const params: Record<string, string> = match
        ? { "match[]": substitute(match, values, BUILTINS) }
        : {};
      values[v.name] = (await api(`/api/v1/label/${label}/values`, params)) as string[];
    }
    return values;
  }

  it("scrapes a fleet frozen at the pinned time (the same numbers every scrape)", async () => {
    const changed = await instant(
      "sum(changes(gpu_power_draw_watts[1m])) + sum(changes(gpu_memory_used_bytes[1m]))",
    );
    expect(changed).toMatchObject([{ value: [expect.any(Number), "0"] }]);
    expect(await instant("gpu_mig_memory_total_bytes")).not.toEqual([]);
  });

  it("answers every template variable's query with values", async () => {
    const values = await variableValues();
    expect(Object.keys(values)).toEqual(["job", "hostname", "instance", "gpu"]);
    expect(values.job).toEqual(["gpufleet"]);
    expect(values.hostname).toHaveLength(HOSTS);
    expect(values.instance).toHaveLength(HOSTS);
    expect(values.gpu?.length).toBeGreaterThan(1);
  });

  it("returns at least one series for every panel's every query, instant and range", async () => {
    const values = await variableValues();
    const queries = dashboardQueries(DASHBOARD);
    expect(queries.length).toBeGreaterThan(40);
    const now = Number(
      ((await api("/api/v1/query", { query: "time()" })) as { result: [number] }).result[0],
    );
    const empty: string[] = [];
    for (const q of queries) {
      const expr = substitute(q.expr, values, BUILTINS);
      const name = `${q.panel} [${q.refId}]`;
      if ((await instant(expr)).length === 0) empty.push(`${name} (instant): ${q.expr}`);
      if (!q.range) continue;
      const range = (await api("/api/v1/query_range", {
        query: expr,
        start: String(now - 20),
        end: String(now),
        step: "2",
      })) as { result: unknown[] };
      if (range.result.length === 0) empty.push(`${name} (range): ${q.expr}`);
    }
    expect(empty).toEqual([]);
  });

  it("names only metrics the exporter serves", async () => {
    const served = new Set((await api("/api/v1/label/__name__/values", {})) as string[]);
    const queried = new Set(dashboardQueries(DASHBOARD).flatMap((q) => metricNames(q.expr)));
    const missing = [...queried].filter((m) => !served.has(m) && !NOT_SIMULATED.has(m));
    expect(missing).toEqual([]);
  });

  it("evaluates every alert rule without an error", async () => {
    type Rule = { name: string; health: string; lastError?: string; lastEvaluation: string };
    const rules = async () => {
      const data = (await api("/api/v1/rules", { type: "alert" })) as {
        groups: { rules: Rule[] }[];
      };
      return data.groups.flatMap((g) => g.rules);
    };
    await waitFor("every alert rule evaluated", async () =>
      (await rules()).every((r) => !r.lastEvaluation.startsWith("0001-")),
    );
    const all = await rules();
    expect(all).toHaveLength(8);
    expect(all.filter((r) => r.health !== "ok").map((r) => `${r.name}: ${r.lastError}`)).toEqual(
      [],
    );
  });
});
