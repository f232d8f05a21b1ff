import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import type { GpuWindowStats, MetricsSource, SourceHealth } from "../metrics/source.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { ruleInputSchema } from "../zod/schemas/rule.ts";
import { readBackendState } from "./backend-state.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";
import { makeHost } from "./fixtures.ts";
import { listAlerts } from "./list-alerts.ts";
import { DEFAULT_RULES_MARK, installDefaultRules } from "./rules/default-rules.ts";

// The metrics_backend_down kind and the held rules, on the store with a scripted backend (the
// fault tests do the same against a real Prometheus): pinned times, no network.

const T0 = new Date("2026-11-20T12:00:00Z");
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const DOWN = "Prometheus unreachable at http://prom:9090: connect ECONNREFUSED 10.0.0.9:9090";

let db: Db;
let health: SourceHealth;
let windowCalls = 0;
const prom: Pick<MetricsSource, "mode" | "gpuWindow" | "health"> = {
  mode: "prometheus",
  health: () => Promise.resolve(health),
  gpuWindow: (): Promise<GpuWindowStats[]> => {
    windowCalls++;
    return health.ok ? Promise.resolve([]) : Promise.reject(new Error(DOWN));
  },
};
const up = () => (health = { ok: true, lastSuccess: null, error: null });
const down = () => (health = { ok: false, lastSuccess: at(0), error: DOWN });
const evaluate = (s: number, metrics = prom) =>
  evaluateAlerts(db, { now: at(s), metrics, intervalS: 15 });
const open = (kind: string) =>
  db.alert.findMany({ where: { kind, state: { in: ["firing", "acknowledged"] } } });

beforeEach(async () => {
  db = makeTestDb().db;
  windowCalls = 0;
  await makeHost(db, "gpu-1", { lastSeen: T0 });
  for (const [name, kind] of [
    ["Idle", "idle"],
    ["Exporter down", "exporter_down"],
    ["Metrics backend down", "metrics_backend_down"],
  ] as const)
    await db.alertRule.create({ data: { name, kind } });
});
afterAll(async () => db?.$disconnect());

describe("metrics backend down (Prometheus mode)", () => {
  it("holds metric and liveness rules, opens one alert after two intervals, resolves at once", async () => {
    up();
    expect((await evaluate(0)).errors).toEqual([]);
    down();
    for (const s of [15, 30, 45]) {
      const r = await evaluate(s);
      expect(r.errors).toEqual([`Idle: ${DOWN}`]); // the probe's error, no window query made
    }
    expect(windowCalls).toBe(1); // only at 0 s, while it answered
    expect(await open("metrics_backend_down")).toHaveLength(0); // 30 s down: not yet (> 35 s)
    await evaluate(60); // 45 s after the first failed probe
    const [alert, ...more] = await open("metrics_backend_down");
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ severity: "critical", hostId: null, startsAt: at(60) });
    expect(alert?.summary).toBe(
      `Metrics backend unreachable since ${at(15).toISOString()}: ${DOWN}; held until it answers: Idle, Exporter down`,
    );
    for (let s = 75; s <= 600; s += 15) await evaluate(s); // lastSeen is 10 min old by now
    expect(await open("exporter_down")).toEqual([]);
    expect(await open("metrics_backend_down")).toHaveLength(1);
    expect((await readBackendState(db))?.since).toEqual(at(15));

    up(); // answers again; discovery has not yet moved lastSeen: still no exporter_down
    expect((await evaluate(615)).resolved).toBe(1);
    expect(await open("metrics_backend_down")).toEqual([]);
    const resolved = await db.alert.findFirstOrThrow({ where: { kind: "metrics_backend_down" } });
    expect(resolved.endsAt).toEqual(at(615)); // no resolve hold
    expect(await open("exporter_down")).toEqual([]);
    // a host still silent 35 s after the backend came back is judged as usual
    await evaluate(645);
    expect(await open("exporter_down")).toEqual([]);
    await evaluate(655);
    expect(await open("exporter_down")).toHaveLength(1);
  });

  it("never fires in embedded mode (the backend is the app's own store)", async () => {
    const embedded = createEmbeddedSource(db, 15);
    for (let s = 0; s <= 600; s += 15) await evaluate(s, embedded);
    expect(await db.alert.count({ where: { kind: "metrics_backend_down" } })).toBe(0);
    expect(await readBackendState(db)).toBeNull();
  });

  it("the alert list shows the backend alert to fleet-wide viewers", async () => {
    down();
    for (let s = 0; s <= 60; s += 15) await evaluate(s);
    const list = await listAlerts(
      { state: "open", kind: "metrics_backend_down", limit: 10 },
      { client: db, now: at(60), scope: null },
    );
    expect(list.alerts.map((a) => [a.kind, a.state, a.clearSince])).toEqual([
      ["metrics_backend_down", "firing", null],
    ]);
  });
});

describe("metrics_backend_down rule", () => {
  it("is fleet-wide only, with missed intervals (default 2)", () => {
    const ok = ruleInputSchema.parse({ name: "B", kind: "metrics_backend_down", params: {} });
    expect(ok.params).toEqual({ missedIntervals: 2 });
    const team = ruleInputSchema.safeParse({
      name: "B",
      kind: "metrics_backend_down",
      scopeKind: "team",
      scopeValue: "research",
    });
    expect(team.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["scopeKind", "the metrics backend serves the whole fleet: use the fleet scope"],
    ]);
  });

  it("is added once to a store whose defaults predate it, and stays deleted", async () => {
    await db.alertRule.deleteMany({});
    await db.jobState.create({ data: { name: DEFAULT_RULES_MARK, value: T0.toISOString() } });
    expect(await installDefaultRules(db)).toBe(1);
    const rule = await db.alertRule.findFirstOrThrow({ where: { kind: "metrics_backend_down" } });
    expect(rule).toMatchObject({ name: "Metrics backend down", enabled: true });
    await db.alertRule.delete({ where: { id: rule.id } });
    expect(await installDefaultRules(db)).toBe(0);
    expect(await db.alertRule.count()).toBe(0);
  });
});
