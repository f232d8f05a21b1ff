import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { createEmbeddedSource } from "./embedded/source.ts";
import type { InstantVector, PromClient } from "./prometheus/api.ts";
import { shareAboveQueries } from "./prometheus/gpu-window.ts";
import { createPrometheusSource } from "./prometheus/source.ts";
import { poolShareAbove, type GpuShareAbove } from "./source.ts";

// gpuShareAbove, the share of a window a GPU spent above a utilization threshold (what a
// scale-out signal needs), in both backends: the embedded store's minutes and Prometheus's
// subquery. Same fleet, same answer.

const NOW = new Date("2026-11-20T12:00:00Z");
const FROM = new Date(NOW.getTime() - 60 * 60_000);
let db: Db;
let hostId = "";

beforeAll(async () => {
  db = makeTestDb().db;
  hostId = (await db.host.create({ data: { hostname: "h1", origin: "prometheus" } })).id;
  // GPU-a: 45 of 60 minutes at 0.9, 15 at 0.2; GPU-b: reported only the last 30 minutes, all at
  // 0.95; a MIG slice (left out, as every window statistic leaves slices out)
  const rows = [];
  for (let m = 0; m < 60; m++) {
    const minuteStart = new Date(FROM.getTime() + m * 60_000);
    rows.push({ hostId, gpuUuid: "GPU-a", minuteStart, samples: 4, util: m < 45 ? 0.9 : 0.2 });
    if (m >= 30) rows.push({ hostId, gpuUuid: "GPU-b", minuteStart, samples: 4, util: 0.95 });
    rows.push({ hostId, gpuUuid: "GPU-a:gi1", minuteStart, samples: 4, util: 0.99 });
  }
  // outside the window: never counted
  rows.push({ hostId, gpuUuid: "GPU-a", minuteStart: NOW, samples: 4, util: 0.1 });
  await db.gpuMinute.createMany({ data: rows });
});
afterAll(async () => db.$disconnect());

const byGpu = (rows: GpuShareAbove[]) =>
  Object.fromEntries(rows.map((r) => [r.gpuUuid, { share: r.shareAbove, cov: r.coverage }]));

describe("gpuShareAbove", () => {
  it("embedded: the share of each physical GPU's minutes above the threshold, and its coverage", async () => {
    const rows = await createEmbeddedSource(db, 15).gpuShareAbove(FROM, NOW, 0.8);
    expect(byGpu(rows)).toEqual({
      "GPU-a": { share: 0.75, cov: 1 },
      "GPU-b": { share: 1, cov: 0.5 },
    });
    expect(rows.every((r) => r.hostId === hostId)).toBe(true);
    await expect(createEmbeddedSource(db, 15).gpuShareAbove(FROM, NOW, Number.NaN)).rejects.toThrow(
      /threshold/,
    );
    // strictly above: at 0.9 exactly, the 0.9 minutes do not count
    expect(
      byGpu(await createEmbeddedSource(db, 15).gpuShareAbove(FROM, NOW, 0.9))["GPU-a"],
    ).toEqual({ share: 0, cov: 1 });
  });

  it("prometheus: one subquery per window, joined to hosts through gpu_host_info", async () => {
    const q = shareAboveQueries(3600, 0.8);
    expect(q.above).toBe(
      'avg_over_time((gpu_utilization_ratio{gpu_instance_id=""} > bool 0.8)[3600s:15s])',
    );
    const inst = "10.0.0.1:9445";
    const vec = (rows: [Record<string, string>, number][]): InstantVector =>
      rows.map(([metric, v]) => ({ metric, value: [NOW.getTime() / 1000, String(v)] }));
    const answers = new Map<string, InstantVector>([
      ["gpu_host_info", vec([[{ instance: inst, hostname: "h1" }, 1]])],
      [
        q.above ?? "",
        vec([
          [{ instance: inst, uuid: "GPU-a" }, 0.75],
          [{ instance: inst, uuid: "GPU-b" }, 1],
          [{ instance: inst, uuid: "GPU-a", gpu_instance_id: "1" }, 1],
          [{ instance: "10.9.9.9:9445", uuid: "GPU-x" }, 1],
        ]),
      ],
      [
        q.utilCount ?? "",
        vec([
          [{ instance: inst, uuid: "GPU-a" }, 240],
          [{ instance: inst, uuid: "GPU-b" }, 120],
        ]),
      ],
      [q.upCount ?? "", vec([[{ instance: inst }, 240]])],
    ]);
    const client: PromClient = {
      async query(promql, at) {
        expect(at?.getTime()).toBe(NOW.getTime());
        return answers.get(promql) ?? [];
      },
      async queryRange() {
        return [];
      },
    };
    const rows = await createPrometheusSource(db, "http://prom", client).gpuShareAbove(
      FROM,
      NOW,
      0.8,
    );
    // the same answer as the embedded store for the same fleet; unknown hosts and slices left out
    expect(byGpu(rows)).toEqual({
      "GPU-a": { share: 0.75, cov: 1 },
      "GPU-b": { share: 1, cov: 0.5 },
    });
    await expect(
      createPrometheusSource(db, "http://prom", client).gpuShareAbove(FROM, NOW, Number.NaN),
    ).rejects.toThrow(/threshold/);
  });

  it("a pool's share weighs each GPU by how much of the window it reported", () => {
    const gpus = [
      { hostId, gpuUuid: "GPU-a", shareAbove: 0.75, coverage: 1 },
      { hostId, gpuUuid: "GPU-b", shareAbove: 1, coverage: 0.5 },
    ];
    // (0.75 × 60 + 1 × 30) / 90 minutes
    expect(poolShareAbove(gpus)).toBeCloseTo(75 / 90, 12);
    expect(poolShareAbove([])).toBeNull();
  });
});
