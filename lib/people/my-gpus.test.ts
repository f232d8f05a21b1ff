import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Holder } from "@/lib/core/holders.ts";
import type { CurrentGpu, MetricsSource, ProcessInfo } from "@/lib/metrics/source.ts";
import { UNUSED_WINDOW_READS } from "@/lib/testing/fake-metrics.ts";

// "My GPUs" (issue 24): a person whose email the directory maps sees what they hold, nobody else's.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-my-gpus-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

const NOW = new Date("2026-11-20T10:30:00Z");
const who = (user: string): Holder => ({
  user,
  kind: "container",
  ref: `${user}-c`,
  name: null,
  namespace: null,
  account: null,
});
let hostId = "";

function gpu(uuid: string, index: number, util: number): CurrentGpu {
  return {
    hostId,
    hostname: "shared-1",
    uuid,
    index,
    name: "A100",
    util,
    memUsedBytes: 1,
    memTotalBytes: 2,
    powerWatts: 1,
    tempCelsius: 1,
    processes: 1,
    lastSeen: NOW,
    reporting: true,
    parentUuid: null,
    migProfile: null,
  };
}

function source(): MetricsSource {
  const procs: ProcessInfo[] = [
    { gpuUuid: "GPU-0", pid: 11, processName: "python", usedMemoryBytes: 5, holder: who("alice") },
    { gpuUuid: "GPU-1", pid: 12, processName: "python", usedMemoryBytes: 5, holder: who("bob") },
    { gpuUuid: "GPU-2", pid: 13, processName: "train", usedMemoryBytes: 5, holder: who("alice") },
  ];
  return {
    mode: "embedded",
    currentGpus: () =>
      Promise.resolve([gpu("GPU-0", 0, 0.9), gpu("GPU-1", 1, 0.9), gpu("GPU-2", 2, 0)]),
    fleetSeries: () => Promise.reject(new Error("unused")),
    gpuSeries: () => Promise.reject(new Error("unused")),
    processes: (id) => Promise.resolve(id === hostId ? procs : []),
    health: () => Promise.resolve({ ok: true, lastSuccess: NOW, error: null }),
    ...UNUSED_WINDOW_READS,
  };
}

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { db } = await import("@/lib/db.ts");
  const { installShippedCatalogue } = await import("@/lib/pricing/seed.ts");
  await installShippedCatalogue(db);
  const host = await db.host.create({
    data: {
      hostname: "shared-1",
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      team: "ml",
      state: "up",
    },
  });
  hostId = host.id;
  for (const i of [0, 1, 2])
    await db.gpu.create({
      data: { hostId, uuid: `GPU-${i}`, index: i, name: "A100", memoryTotalBytes: 1n },
    });
  const base = {
    hostId,
    holderKey: "alice|container:alice-c",
    user: "alice",
    kind: "container",
    ref: "alice-c",
    team: "ml",
    sharePpm: 1_000_000,
    memByteSeconds: 1n,
    idleSeconds: 0,
  };
  // alice held GPU-2 for the two hours before this one (and once, earlier, with a gap)
  for (const [h, cost, idle] of [
    [7, 1_000_000n, 0n],
    [8, 2_000_000n, 500_000n],
    [9, 3_000_000n, 1_000_000n],
  ] as const)
    await db.usageHourHolder.create({
      data: {
        ...base,
        gpuKey: "GPU-2",
        hourStart: new Date(Date.UTC(2026, 10, 20, h)),
        costMicros: cost,
        idleCostMicros: idle,
      },
    });
  await db.usageHourHolder.deleteMany({
    where: { hourStart: new Date(Date.UTC(2026, 10, 20, 7)) },
  });
  await db.usageHourHolder.create({
    data: {
      ...base,
      gpuKey: "GPU-2",
      hourStart: new Date(Date.UTC(2026, 10, 20, 6)),
      costMicros: 1_000_000n,
      idleCostMicros: 0n,
    },
  });
  await db.alert.create({
    data: {
      rule: { create: { name: "Idle", kind: "idle_gpu" } },
      fingerprint: "f",
      kind: "idle_gpu",
      hostId,
      gpuUuid: "GPU-2",
      summary: "GPU 2 idle for 45 min",
      startsAt: NOW,
    },
  });
  const { savePerson } = await import("./directory.ts");
  await savePerson({ kind: "user", key: "alice", email: "alice@example.com", slackId: null });
});

describe("my GPUs", () => {
  it("shows the mapped person what they hold, busy or idle, since when, at what cost, and its alerts", async () => {
    const { myGpus } = await import("./my-gpus.ts");
    const mine = await myGpus("Alice@example.com", { source: source(), now: NOW });
    expect(mine.mapped).toBe(true);
    expect(mine.as).toEqual(["user alice"]);
    expect(mine.gpus.map((g) => [g.uuid, g.state, g.heldSince])).toEqual([
      ["GPU-0", "busy", null],
      ["GPU-2", "idle", "2026-11-20T08:00:00.000Z"],
    ]);
    expect(mine.gpus[1]?.holders).toEqual(["alice · container alice-c (pid 13)"]);
    // p4d.24xlarge's price over its 3 GPUs known to the store
    expect(Number(mine.gpus[1]?.perHourMicros)).toBeGreaterThan(0);
    expect(mine.monthMicros).toBe("6000000");
    expect(mine.monthIdleMicros).toBe("1500000");
    expect(mine.alerts.map((a) => a.summary)).toEqual(["GPU 2 idle for 45 min"]);
  });

  it("shows an unmapped person nothing, not somebody else's GPUs", async () => {
    const { myGpus } = await import("./my-gpus.ts");
    const none = await myGpus("mallory@example.com", { source: source(), now: NOW });
    expect(none).toMatchObject({ mapped: false, gpus: [], alerts: [], monthMicros: "0" });
  });
});
