import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import type { InstantVector, PromClient } from "../metrics/prom-api.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { evaluateIdle } from "./evaluate-idle.ts";
import type { HostFacts, RuleFacts } from "./facts.ts";
import { createPrometheusAlertMetrics, windowQueries } from "./metrics-prometheus.ts";

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

function stub(): PromClient & { asked: string[] } {
  const q = windowQueries(1800);
  const answers = new Map<string, InstantVector>([
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
    expect(q.thermal).toContain(
      'gpu_clock_event_active{reason=~"sw_thermal_slowdown|hw_thermal_slowdown|hw_slowdown"}',
    );
  });

  it("joins GPUs to hosts through gpu_host_info and drops MIG series", async () => {
    const client = stub();
    const stats = await createPrometheusAlertMetrics(db, client).gpuWindow(
      new Date(NOW.getTime() - 1800_000),
      NOW,
    );
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
    const stats = await createPrometheusAlertMetrics(db, stub()).gpuWindow(
      new Date(NOW.getTime() - 1800_000),
      NOW,
    );
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
});
