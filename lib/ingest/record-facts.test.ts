import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { parseExposition } from "./exposition.ts";
import { newRecorderState, recordScrapes, type ScrapedHost } from "./record-scrapes.ts";
import { snapshotFromSamples } from "./snapshot.ts";

// Issue 16 in the store: host facts, the reclaim notice and the "interrupted" state, vGPU facts
// and the per-minute SM / tensor active columns, as the embedded recorder writes them.

let db: Db;
let hostId = "";
let otherId = "";
beforeAll(async () => {
  db = makeTestDb().db;
  hostId = (await db.host.create({ data: { hostname: "spot-1", target: "http://a/metrics" } })).id;
  otherId = (await db.host.create({ data: { hostname: "od-1", target: "http://b/metrics" } })).id;
});
afterAll(async () => db.$disconnect());

function page(opts: { pending?: 0 | 1; licensed?: 0 | 1; sm?: number }): string {
  const lines = [
    'gpu_host_info{hostname="spot-1",provider="aws",instance_type="g5.xlarge",region="us-east-1",zone="us-east-1b",pricing_model="spot",instance_id="i-042"} 1',
    'gpu_info{gpu="0",uuid="GPU-s0",name="A10G",virtualization_mode="VGPU"} 1',
    'gpu_utilization_ratio{gpu="0",uuid="GPU-s0"} 0.9',
    'gpu_memory_total_bytes{gpu="0",uuid="GPU-s0"} 24000000000',
  ];
  if (opts.pending !== undefined) {
    lines.push(`gpu_host_interruption_pending ${opts.pending}`);
    lines.push(`gpu_host_interruption_time_seconds ${opts.pending ? 1796000000 : 0}`);
  }
  if (opts.licensed !== undefined)
    lines.push(`gpu_vgpu_licensed{gpu="0",uuid="GPU-s0",licensed_product="vCS"} ${opts.licensed}`);
  if (opts.sm !== undefined) {
    lines.push(`gpu_sm_active_ratio{gpu="0",uuid="GPU-s0"} ${opts.sm}`);
    lines.push(`gpu_tensor_active_ratio{gpu="0",uuid="GPU-s0"} 0.1`);
  }
  return lines.join("\n") + "\n";
}

const up = (id: string, text: string): ScrapedHost => ({
  hostId: id,
  result: {
    ok: true,
    url: "http://a/metrics",
    snapshot: snapshotFromSamples(parseExposition(text).samples),
    durationMs: 1,
    invalidLines: 0,
  },
});
const down = (id: string): ScrapedHost => ({
  hostId: id,
  result: { ok: false, url: "http://a/metrics", error: "connection refused", durationMs: 1 },
});

describe("recordScrapes: host and GPU facts", () => {
  const t0 = new Date(Date.UTC(2026, 11, 1, 2, 0, 0));
  const state = newRecorderState();

  it("stores zone, instance id, the notice, the vGPU facts and SM active", async () => {
    await recordScrapes(db, state, [up(hostId, page({ pending: 1, licensed: 1, sm: 0.15 }))], t0);
    const h = await db.host.findUniqueOrThrow({ where: { id: hostId } });
    expect(h).toMatchObject({
      state: "up",
      zone: "us-east-1b",
      instanceId: "i-042",
      interruptionPending: true,
      interruptionAt: new Date(1796000000_000),
      labels: "{}",
    });
    const g = await db.gpu.findUniqueOrThrow({ where: { uuid: "GPU-s0" } });
    expect([g.virtualizationMode, g.vgpuLicensed]).toEqual(["VGPU", true]);
    const m = await db.gpuMinute.findFirstOrThrow({ where: { gpuUuid: "GPU-s0" } });
    expect([m.util, m.smActive, m.tensorActive]).toEqual([0.9, 0.15, 0.1]);
  });

  it("rewrites a known GPU when its licence lapses", async () => {
    await recordScrapes(db, state, [up(hostId, page({ pending: 1, licensed: 0 }))], t0);
    const g = await db.gpu.findUniqueOrThrow({ where: { uuid: "GPU-s0" } });
    expect(g.vgpuLicensed).toBe(false);
  });

  it("marks a host that stops answering under a pending notice interrupted, others down", async () => {
    const t1 = new Date(t0.getTime() + 60_000);
    await recordScrapes(db, state, [down(hostId), down(otherId)], t1);
    const hosts = await db.host.findMany({ orderBy: { hostname: "asc" } });
    expect(hosts.map((h) => [h.hostname, h.state, h.lastError])).toEqual([
      ["od-1", "down", "connection refused"],
      ["spot-1", "interrupted", "connection refused"],
    ]);
  });

  it("clears the notice when the host answers without one, and keeps its time", async () => {
    const t2 = new Date(t0.getTime() + 120_000);
    await recordScrapes(db, state, [up(hostId, page({ pending: 0 }))], t2);
    const h = await db.host.findUniqueOrThrow({ where: { id: hostId } });
    expect([h.state, h.interruptionPending, h.interruptionAt]).toEqual([
      "up",
      false,
      new Date(1796000000_000),
    ]);
    await recordScrapes(db, state, [down(hostId)], new Date(t2.getTime() + 60_000));
    const after = await db.host.findUniqueOrThrow({ where: { id: hostId } });
    expect(after.state).toBe("down");
  });
});
