import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import type { InstantVector, PromClient } from "../metrics/prometheus/api.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { discoverFromPrometheus } from "./discover-prometheus.ts";

// Issue 16 in Prometheus mode: zone and instance id, the reclaim notice (and "interrupted" when
// the target goes down under it), virtualization mode and vGPU licence, learnt from the API.

const sample = (metric: Record<string, string>, v = "1") => ({
  metric,
  value: [0, v] as [number, string],
});

function prom(opts: { up: boolean; pending: boolean | null }): PromClient {
  const series: Record<string, InstantVector> = {
    gpu_host_info: [
      sample({
        instance: "s:9445",
        hostname: "spot-p",
        provider: "gcp",
        zone: "us-central1-a",
        instance_id: "4242",
        pricing_model: "spot",
      }),
    ],
    up: [sample({ instance: "s:9445" }, opts.up ? "1" : "0")],
    gpu_info: [
      sample({
        instance: "s:9445",
        uuid: "GPU-p0",
        gpu: "0",
        name: "L4",
        virtualization_mode: "Pass-Through",
      }),
    ],
    gpu_vgpu_licensed: [],
    gpu_host_interruption_pending:
      opts.pending === null ? [] : [sample({ instance: "s:9445" }, opts.pending ? "1" : "0")],
    gpu_host_interruption_time_seconds:
      opts.pending === null
        ? []
        : [sample({ instance: "s:9445" }, opts.pending ? "1796000030" : "0")],
  };
  return {
    query: (promql: string) => Promise.resolve(series[promql] ?? []),
    queryRange: () => Promise.reject(new Error("not used")),
  };
}

let db: Db;
beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

describe("discoverFromPrometheus: host and GPU facts", () => {
  const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 2, 0, s));

  it("stores zone and instance id as columns and the pending notice", async () => {
    await discoverFromPrometheus(db, prom({ up: true, pending: true }), t(0));
    const h = await db.host.findUniqueOrThrow({ where: { hostname: "spot-p" } });
    expect(h).toMatchObject({
      state: "up",
      zone: "us-central1-a",
      instanceId: "4242",
      labels: "{}",
      interruptionPending: true,
      interruptionAt: new Date(1796000030_000),
    });
    const g = await db.gpu.findUniqueOrThrow({ where: { uuid: "GPU-p0" } });
    expect([g.virtualizationMode, g.vgpuLicensed]).toEqual(["Pass-Through", null]);
  });

  it("marks the host interrupted when its target goes down under the notice", async () => {
    await discoverFromPrometheus(db, prom({ up: false, pending: true }), t(15));
    const h = await db.host.findUniqueOrThrow({ where: { hostname: "spot-p" } });
    expect(h.state).toBe("interrupted");
    // a down target's notice series go stale: the stored notice stands
    await discoverFromPrometheus(db, prom({ up: false, pending: null }), t(20));
    const later = await db.host.findUniqueOrThrow({ where: { hostname: "spot-p" } });
    expect([later.state, later.interruptionPending]).toEqual(["interrupted", true]);
  });

  it("is up again, the notice cleared, when the target answers without one", async () => {
    await discoverFromPrometheus(db, prom({ up: true, pending: false }), t(30));
    const h = await db.host.findUniqueOrThrow({ where: { hostname: "spot-p" } });
    expect([h.state, h.interruptionPending, h.interruptionAt]).toEqual([
      "up",
      false,
      new Date(1796000030_000),
    ]);
  });
});
