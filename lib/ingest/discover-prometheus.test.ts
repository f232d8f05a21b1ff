import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import type { InstantVector, PromClient } from "../metrics/prometheus/api.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { discoverFromPrometheus } from "./discover-prometheus.ts";

// Discovery from Prometheus writes only what changed; these check it still ends with the same
// rows an upsert per host and GPU gave.

type Series = Record<string, InstantVector>;

function fakeProm(series: Series): PromClient {
  return {
    query: (promql: string) => Promise.resolve(series[promql] ?? []),
    queryRange: () => Promise.reject(new Error("not used")),
  };
}

const sample = (metric: Record<string, string>, v = "1") => ({
  metric,
  value: [0, v] as [number, string],
});

function fleet(opts: { team?: string; b_up?: boolean; gpuName?: string; total?: string }): Series {
  const hostA = {
    instance: "a:9445",
    hostname: "host-a",
    provider: "aws",
    instance_type: "p4d.24xlarge",
    region: "us-east-1",
    pricing_model: "on_demand",
    ...(opts.team ? { team: opts.team } : {}),
    rack: "r1",
  };
  const hostB = { instance: "b:9445", hostname: "host-b", provider: "gcp" };
  return {
    gpu_host_info: [sample(hostA), sample(hostB)],
    up: [sample({ instance: "a:9445" }), sample({ instance: "b:9445" }, opts.b_up ? "1" : "0")],
    gpu_info: [
      sample({ instance: "a:9445", uuid: "GPU-a0", gpu: "0", name: opts.gpuName ?? "A100" }),
      sample({ instance: "a:9445", uuid: "GPU-a1", gpu: "1", name: "A100", mig_mode: "Enabled" }),
      sample({ instance: "b:9445", uuid: "GPU-b0", gpu: "0", name: "L4" }),
    ],
    gpu_memory_total_bytes: [
      sample({ uuid: "GPU-a0" }, opts.total ?? "85899345920"),
      sample({ uuid: "GPU-b0" }, "24000000000"),
    ],
  };
}

let db: Db;
beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

async function snapshot() {
  const hosts = await db.host.findMany({ orderBy: { hostname: "asc" } });
  const gpus = await db.gpu.findMany({ orderBy: { uuid: "asc" } });
  return { hosts, gpus };
}

describe("discoverFromPrometheus", () => {
  const t1 = new Date(Date.UTC(2026, 10, 29, 10, 0, 0));
  const t2 = new Date(Date.UTC(2026, 10, 29, 10, 0, 15));
  const t3 = new Date(Date.UTC(2026, 10, 29, 10, 0, 30));

  it("creates hosts and GPUs on first sight, with state, attribution and memory", async () => {
    expect(await discoverFromPrometheus(db, fakeProm(fleet({ team: "research" })), t1)).toBe(2);
    const { hosts, gpus } = await snapshot();
    expect(hosts.map((h) => [h.hostname, h.state, h.origin, h.team, h.lastError])).toEqual([
      ["host-a", "up", "prometheus", "research", null],
      ["host-b", "down", "prometheus", "unassigned", "Prometheus reports the target down"],
    ]);
    expect(hosts[0]).toMatchObject({
      provider: "aws",
      instanceType: "p4d.24xlarge",
      pricingModel: "on_demand",
      labels: JSON.stringify({ rack: "r1" }),
      lastSeen: t1,
    });
    expect(hosts[1]).toMatchObject({ provider: "gcp", instanceType: "unknown", lastSeen: null });
    expect(
      gpus.map((g) => [g.uuid, g.hostId === hosts[0]?.id, g.index, g.name, g.migMode]),
    ).toEqual([
      ["GPU-a0", true, 0, "A100", false],
      ["GPU-a1", true, 1, "A100", true],
      ["GPU-b0", false, 0, "L4", false],
    ]);
    expect(gpus.map((g) => [g.memoryTotalBytes, g.lastSeen])).toEqual([
      [85899345920n, t1],
      [0n, t1],
      [24000000000n, null], // its host is down: known, not seen
    ]);
  });

  it("changes only what changed, and keeps a team set in the store when the label goes", async () => {
    const before = await snapshot();
    await discoverFromPrometheus(db, fakeProm(fleet({ team: "research" })), t2);
    const same = await snapshot();
    // nothing changed but the time: the same rows, seen later
    expect(same.hosts.map((h) => h.id)).toEqual(before.hosts.map((h) => h.id));
    expect(same.hosts[0]?.lastSeen).toEqual(t2);
    expect(same.gpus.map((g) => g.lastSeen)).toEqual([t2, t2, null]);

    await db.host.update({ where: { hostname: "host-b" }, data: { team: "platform" } });
    await discoverFromPrometheus(
      db,
      fakeProm(fleet({ team: "infra", b_up: true, gpuName: "A100-SXM4-80GB", total: "1000" })),
      t3,
    );
    const { hosts, gpus } = await snapshot();
    expect(hosts.map((h) => [h.hostname, h.state, h.team, h.lastError, h.lastSeen])).toEqual([
      ["host-a", "up", "infra", null, t3],
      ["host-b", "up", "platform", null, t3],
    ]);
    expect(gpus.map((g) => [g.uuid, g.name, g.memoryTotalBytes, g.lastSeen])).toEqual([
      ["GPU-a0", "A100-SXM4-80GB", 1000n, t3],
      ["GPU-a1", "A100", 0n, t3],
      ["GPU-b0", "L4", 24000000000n, t3],
    ]);
  });

  it("leaves lastSeen alone for a GPU its up host no longer reports", async () => {
    const t4 = new Date(t3.getTime() + 15_000);
    const series = fleet({ team: "infra", b_up: true });
    series.gpu_info = (series.gpu_info ?? []).filter((s) => s.metric.uuid !== "GPU-a0");
    await discoverFromPrometheus(db, fakeProm(series), t4);
    const { gpus } = await snapshot();
    expect(gpus.map((g) => [g.uuid, g.lastSeen])).toEqual([
      ["GPU-a0", t3],
      ["GPU-a1", t4],
      ["GPU-b0", t4],
    ]);
  });

  it("gets lastSeen right when many GPUs of up hosts stop reporting at once", async () => {
    const { db: big } = makeTestDb();
    try {
      const hosts = Array.from({ length: 30 }, (_, h) => h);
      const series = (reported: (h: number) => boolean): Series => ({
        gpu_host_info: hosts.map((h) => sample({ instance: `h${h}`, hostname: `big-${h}` })),
        up: hosts.map((h) => sample({ instance: `h${h}` })),
        gpu_info: hosts.flatMap((h) =>
          reported(h)
            ? Array.from({ length: 8 }, (_, g) =>
                sample({ instance: `h${h}`, uuid: `GPU-${h}-${g}`, gpu: String(g), name: "L4" }),
              )
            : [],
        ),
      });
      await discoverFromPrometheus(big, fakeProm(series(() => true)), t1);
      // 29 hosts' exporters lose their GPUs (232 GPUs unreported, more than go in one notIn)
      await discoverFromPrometheus(big, fakeProm(series((h) => h === 0)), t2);
      const gpus = await big.gpu.findMany({ include: { host: true } });
      expect(gpus).toHaveLength(240);
      for (const g of gpus)
        expect([g.uuid, g.lastSeen]).toEqual([g.uuid, g.host.hostname === "big-0" ? t2 : t1]);
    } finally {
      await big.$disconnect();
    }
  });

  it("moves a GPU to the host that now reports it", async () => {
    const series = fleet({ team: "infra", b_up: true });
    series.gpu_info = [
      ...(series.gpu_info ?? []).filter((s) => s.metric.uuid !== "GPU-a1"),
      sample({ instance: "b:9445", uuid: "GPU-a1", gpu: "1", name: "A100" }),
    ];
    await discoverFromPrometheus(db, fakeProm(series), t3);
    const moved = await db.gpu.findUniqueOrThrow({
      where: { uuid: "GPU-a1" },
      include: { host: true },
    });
    expect([moved.host.hostname, moved.index, moved.migMode]).toEqual(["host-b", 1, false]);
  });
});
