import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db.ts";
import type { InstantVector, PromClient } from "./api.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { promGpuWindow, windowQueries } from "./gpu-window.ts";

// Prometheus mode: SM active over a GPU window (max, mean, coverage) from gpu_sm_active_ratio,
// which the idle rule and the busy-but-inefficient finding read.

const NOW = new Date("2026-12-01T02:00:00Z");
const vec = (rows: [Record<string, string>, number][]): InstantVector =>
  rows.map(([metric, v]) => ({ metric, value: [NOW.getTime() / 1000, String(v)] }));
const a = { instance: "10.0.0.1:9445", uuid: "GPU-a", gpu: "0" };
const b = { instance: "10.0.0.1:9445", uuid: "GPU-b", gpu: "1" };

let db: Db;
beforeAll(async () => {
  db = makeTestDb().db;
  await db.host.create({ data: { hostname: "prom-host" } });
});
afterAll(async () => db.$disconnect());

describe("promGpuWindow: SM active", () => {
  it("queries gpu_sm_active_ratio over whole GPUs", () => {
    const q = windowQueries(3600);
    expect(q.smActiveMax).toBe('max_over_time(gpu_sm_active_ratio{gpu_instance_id=""}[3600s])');
    expect(q.smActiveAvg).toBe('avg_over_time(gpu_sm_active_ratio{gpu_instance_id=""}[3600s])');
    expect(q.smActiveCount).toBe('count_over_time(gpu_sm_active_ratio{gpu_instance_id=""}[3600s])');
  });

  it("fills max, mean and coverage where the GPU has profiling, and nothing where not", async () => {
    const q = windowQueries(3600);
    const answers = new Map<string, InstantVector>([
      ["gpu_host_info", vec([[{ instance: a.instance, hostname: "prom-host" }, 1]])],
      [
        q.utilAvg ?? "",
        vec([
          [a, 0.99],
          [b, 0.5],
        ]),
      ],
      [q.upCount ?? "", vec([[{ instance: a.instance }, 240]])],
      [q.smActiveMax ?? "", vec([[a, 0.004]])],
      [q.smActiveAvg ?? "", vec([[a, 0.002]])],
      [q.smActiveCount ?? "", vec([[a, 180]])],
    ]);
    const client: PromClient = {
      query: (promql: string) => Promise.resolve(answers.get(promql) ?? []),
      queryRange: () => Promise.reject(new Error("not used")),
    };
    const stats = await promGpuWindow(db, client, new Date(NOW.getTime() - 3_600_000), NOW);
    const by = new Map(stats.map((s) => [s.gpuUuid, s]));
    expect(by.get("GPU-a")).toMatchObject({
      smActiveMax: 0.004,
      smActiveAvg: 0.002,
      smActiveCoverage: 0.75,
    });
    expect(by.get("GPU-b")).toMatchObject({
      smActiveMax: null,
      smActiveAvg: null,
      smActiveCoverage: 0,
    });
  });
});
