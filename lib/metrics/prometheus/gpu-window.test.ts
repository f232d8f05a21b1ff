import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db.ts";
import type { InstantVector, PromClient } from "./api.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { evaluateIdle } from "../../alerts/evaluate-idle.ts";
import type { HostFacts, RuleFacts } from "../../alerts/facts.ts";
import { promGpuWindow, rawThrottleQueries, throttleQueries, windowQueries } from "./gpu-window.ts";

// Prometheus mode: the window statistics come from *_over_time queries; a stub API answers them.

const NOW = new Date("2026-11-20T12:00:00Z");
const GIB = 1024 ** 3;
let db: Db;
let hostId = "";

const vec = (rows: [Record<string, string>, number][]): InstantVector =>
  rows.map(([metric, v]) => ({ metric, value: [NOW.getTime() / 1000, String(v)] }));

const a = { instance: "10.0.0.1:9445", uuid: "GPU-a", gpu: "0" };
const b = { instance: "10.0.0.1:9445", uuid: "GPU-b", gpu: "1" };
const slice = { ...a, gpu_instance_id: "1" };

function stub(extra: [string, InstantVector][] = []): PromClient & { asked: string[] } {
  const q = windowQueries(1800);
  const answers = new Map<string, InstantVector>([
    ...extra,
    ["gpu_host_info", vec([[{ instance: a.instance, hostname: "prom-host" }, 1]])],
    [
      q.utilMax ?? "",
      vec([
        [a, 0.02],
        [b, 0.01],
        [slice, 0],
      ]),
    ],
    [
      q.utilAvg ?? "",
      vec([
        [a, 0.01],
        [b, 0.0],
      ]),
    ],
    [
      q.utilCount ?? "",
      vec([
        [a, 120],
        [b, 118],
      ]),
    ],
    [q.upCount ?? "", vec([[{ instance: a.instance, job: "gpu" }, 120]])],
    [
      q.memMax ?? "",
      vec([
        [a, 20 * GIB],
        [b, 0],
      ]),
    ],
    [
      q.memTotal ?? "",
      vec([
        [a, 40 * GIB],
        [b, 40 * GIB],
      ]),
    ],
    [
      q.procMax ?? "",
      vec([
        [a, 1],
        [b, 0],
      ]),
    ],
    [q.ecc ?? "", vec([[a, 2.0000001]])],
    [
      q.lastAt ?? "",
      vec([
        [a, NOW.getTime() / 1000 - 15],
        [b, NOW.getTime() / 1000 - 15],
      ]),
    ],
  ]);
  const asked: string[] = [];
  return {
    asked,
    async query(promql: string, at?: Date) {
      asked.push(promql);
      expect(at?.getTime()).toBe(NOW.getTime());
      return answers.get(promql) ?? [];
    },
    async queryRange() {
      return [];
    },
  };
}

beforeAll(async () => {
  db = makeTestDb().db;
  hostId = (await db.host.create({ data: { hostname: "prom-host", origin: "prometheus" } })).id;
});
afterAll(async () => db.$disconnect());

describe("Prometheus alert metrics", () => {
  it("asks max_over_time / avg_over_time / increase over the rule's window", () => {
    const q = windowQueries(1800);
    expect(q.utilMax).toBe('max_over_time(gpu_utilization_ratio{gpu_instance_id=""}[1800s])');
    expect(q.utilAvg).toBe('avg_over_time(gpu_utilization_ratio{gpu_instance_id=""}[1800s])');
    expect(q.ecc).toBe(
      'increase(gpu_ecc_errors_total{type="uncorrected",gpu_instance_id=""}[1800s])',
    );
    expect(rawThrottleQueries(1800).thermal).toBe(
      'avg_over_time(max by (instance, uuid) (gpu_clock_event_active{reason=~"sw_thermal_slowdown|hw_thermal_slowdown|hw_slowdown"})[1800s:15s])',
    );
    expect(throttleQueries(1800).thermal).toBe(
      "avg_over_time(gpufleet:gpu_thermal_clock_event:max[1800s])",
    );
  });

  it("joins GPUs to hosts through gpu_host_info and drops MIG series", async () => {
    const client = stub();
    const stats = await promGpuWindow(db, client, new Date(NOW.getTime() - 1800_000), NOW);
    expect(stats.map((s) => s.gpuUuid).sort()).toEqual(["GPU-a", "GPU-b"]);
    const sa = stats.find((s) => s.gpuUuid === "GPU-a");
    expect(sa).toMatchObject({
      hostId,
      utilMax: 0.02,
      utilCoverage: 1,
      memMaxBytes: 20 * GIB,
      processesMax: 1,
      eccUncorrectedIncrease: 2,
    });
    expect(stats.find((s) => s.gpuUuid === "GPU-b")?.utilCoverage).toBeCloseTo(118 / 120);
  });

  it("feeds the same idle rule as embedded mode: held vs empty", async () => {
    const stats = await promGpuWindow(db, stub(), new Date(NOW.getTime() - 1800_000), NOW);
    const host: HostFacts = {
      id: hostId,
      hostname: "prom-host",
      provider: "aws",
      instanceType: "x",
      region: "r",
      pricingModel: "on_demand",
      team: "t",
      project: "p",
      owner: null,
      labels: {},
      state: "up",
      lastError: null,
      firstSeen: NOW,
      lastSeen: NOW,
      hourlyMicros: null,
      gpuCount: 2,
    };
    const rule: RuleFacts = {
      id: "r",
      name: "idle",
      kind: "idle",
      scopeKind: "fleet",
      scopeValue: "",
      excludeLabels: {},
      params: {},
      cooldownSeconds: 0,
    };
    const c = evaluateIdle(rule, stats, new Map([[hostId, host]]), new Map(), NOW, 15);
    expect(c.map((x) => [x.gpuUuid, x.details.idleKind]).sort()).toEqual([
      ["GPU-a", "held"],
      ["GPU-b", "empty"],
    ]);
  });

  describe("throttle statistics", () => {
    const from = new Date(NOW.getTime() - 1800_000);
    const nowS = NOW.getTime() / 1000;
    const fleet = { __name__: "x" };
    const recorded = (sinceS: number): [string, InstantVector][] => {
      const t = throttleQueries(1800);
      return [
        [t.since ?? "", vec([[{}, sinceS]])],
        [t.evaluations ?? "", vec([[fleet, 60]])],
        [
          t.thermal ?? "",
          vec([
            [a, 0.5],
            [b, 0],
          ]),
        ],
        [t.power ?? "", vec([[a, 0.25]])],
        [
          t.eventCount ?? "",
          vec([
            [a, 60],
            [b, 30],
          ]),
        ],
      ];
    };
    const raw = (): [string, InstantVector][] => {
      const r = rawThrottleQueries(1800);
      return [
        [r.thermal ?? "", vec([[a, 0.75]])],
        [r.power ?? "", vec([[a, 0]])],
        [r.eventCount ?? "", vec([[a, 60]])],
      ];
    };

    it("come from the recorded series when they cover the window, without subqueries", async () => {
      const client = stub(recorded(from.getTime() / 1000 - 10));
      const stats = await promGpuWindow(db, client, from, NOW);
      expect(stats.find((s) => s.gpuUuid === "GPU-a")).toMatchObject({
        thermalRatio: 0.5,
        powerRatio: 0.25,
        throttleCoverage: 1,
      });
      expect(stats.find((s) => s.gpuUuid === "GPU-b")).toMatchObject({
        thermalRatio: 0,
        powerRatio: null,
        throttleCoverage: 0.5,
      });
      expect(client.asked.filter((q) => q.includes("gpu_clock_event_active"))).toEqual([]);
    });

    it("fall back to subqueries over the raw series where the rules are not loaded", async () => {
      const client = stub(raw());
      const stats = await promGpuWindow(db, client, from, NOW);
      expect(stats.find((s) => s.gpuUuid === "GPU-a")).toMatchObject({
        thermalRatio: 0.75,
        powerRatio: 0,
        throttleCoverage: 0.5, // 60 of 1800 s / 15 s steps
      });
      expect(client.asked).toEqual(expect.arrayContaining(Object.values(rawThrottleQueries(1800))));
    });

    it("fall back as well where the rules began during the window", async () => {
      const client = stub([...recorded(nowS - 600), ...raw()]);
      const stats = await promGpuWindow(db, client, from, NOW);
      expect(stats.find((s) => s.gpuUuid === "GPU-a")?.thermalRatio).toBe(0.75);
    });
  });
});
