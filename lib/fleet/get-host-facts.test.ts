import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import type { CurrentGpu, MetricsSource } from "../metrics/source.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { getHostFacts } from "./get-host-facts.ts";
import { inefficientText, isVgpuGuest, reclaimNote } from "./host-facts.ts";

// The instance page's host facts from the store and the embedded source: a stuck-loop GPU
// (utilization ~1, SM active ~0) over three closed hours is busy but inefficient, with its cost.

const NOW = new Date("2026-12-01T02:10:00Z");
const H = 3_600_000;
let db: Db;
let hostId = "";

beforeAll(async () => {
  db = makeTestDb().db;
  const host = await db.host.create({
    data: {
      hostname: "gpu-aws-usw2-003",
      state: "interrupted",
      zone: "us-west-2a",
      instanceId: "i-0abc",
      interruptionPending: true,
      interruptionAt: new Date("2026-12-01T02:32:00Z"),
    },
  });
  hostId = host.id;
  for (const [i, mode, licensed] of [
    [0, "VGPU", false],
    [1, "None", null],
  ] as const) {
    await db.gpu.create({
      data: {
        hostId,
        uuid: `GPU-${i}`,
        index: i,
        name: "A100",
        memoryTotalBytes: 1n,
        virtualizationMode: mode,
        vgpuLicensed: licensed,
      },
    });
  }
  const start = Date.parse("2026-11-30T23:00:00Z");
  const minutes = [];
  for (let m = 0; m < 180; m++) {
    for (const [uuid, sm] of [
      ["GPU-0", 0.002],
      ["GPU-1", 0.7],
    ] as const) {
      minutes.push({
        hostId,
        gpuUuid: uuid,
        minuteStart: new Date(start + m * 60_000),
        samples: 4,
        util: 0.98,
        smActive: sm,
      });
    }
  }
  await db.gpuMinute.createMany({ data: minutes });
  // the ledger has closed two of the three hours
  const ledger = [0, 1].map((i) => ({
    hourStart: new Date(start + i * H),
    hostId,
    gpuKey: "GPU-0",
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-west-2",
    pricingModel: "spot",
    team: "t",
    project: "p",
    upSeconds: 3600,
    samples: 60,
    idleSeconds: 3600,
    priced: true,
    costMicros: 1_500_000n,
    idleCostMicros: 1_500_000n,
    source: "embedded",
  }));
  await db.usageHour.createMany({ data: ledger });
});
afterAll(async () => db.$disconnect());

describe("getHostFacts", () => {
  it("gives the cloud facts, the notice, vGPU facts, SM active and the inefficient GPU", async () => {
    const embedded = createEmbeddedSource(db, 15);
    const current = [0, 1].map((i): CurrentGpu => ({
      hostId,
      hostname: "gpu-aws-usw2-003",
      uuid: `GPU-${i}`,
      index: i,
      name: "A100",
      util: 0.98,
      memUsedBytes: null,
      memTotalBytes: null,
      powerWatts: null,
      tempCelsius: null,
      processes: 1,
      smActive: i === 0 ? 0.002 : 0.7,
      lastSeen: NOW,
      reporting: true,
      parentUuid: null,
      migProfile: null,
    }));
    const source: MetricsSource = { ...embedded, currentGpus: () => Promise.resolve(current) };
    const f = await getHostFacts(hostId, NOW, { client: db, source });
    expect(f).toMatchObject({
      zone: "us-west-2a",
      instanceId: "i-0abc",
      state: "interrupted",
      interruptionPending: true,
      interruptionAt: "2026-12-01T02:32:00.000Z",
    });
    expect(f?.gpus.map((g) => [g.index, g.virtualizationMode, g.vgpuLicensed, g.smActive])).toEqual(
      [
        [0, "VGPU", false, 0.002],
        [1, "None", null, 0.7],
      ],
    );
    expect(f?.inefficient).toEqual([
      {
        gpuUuid: "GPU-0",
        gpuIndex: 0,
        hours: 3,
        utilAvg: expect.closeTo(0.98, 9),
        smActiveAvg: expect.closeTo(0.002, 9),
        costMicros: "3000000",
        from: "2026-11-30T23:00:00.000Z",
        to: "2026-12-01T02:00:00.000Z",
      },
    ]);
    const text = f?.inefficient[0] ? inefficientText(f.inefficient[0]) : "";
    expect(text).toBe(
      "GPU 0 busy but inefficient for 3 h: utilization 98 %, SM active 0 %; cost $3.00",
    );
    expect(f ? reclaimNote(f) : null).toBe(
      "spot reclaim announced for 02:32 UTC (reclaimed: not counted as an outage)",
    );
  });

  it("is null for a host that is gone, and empty figures when the source fails", async () => {
    const failing = {
      ...createEmbeddedSource(db, 15),
      currentGpus: () => Promise.reject(new Error("down")),
      gpuWindow: () => Promise.reject(new Error("down")),
    };
    expect(await getHostFacts("nope", NOW, { client: db, source: failing })).toBeNull();
    const f = await getHostFacts(hostId, NOW, { client: db, source: failing });
    expect([f?.inefficient, f?.gpus[0]?.smActive]).toEqual([[], null]);
  });
});

describe("page notes", () => {
  it("says a notice's time, or none, and marks vGPU guests", () => {
    expect(reclaimNote({ interruptionPending: false, interruptionAt: null, state: "up" })).toBe(
      null,
    );
    expect(reclaimNote({ interruptionPending: true, interruptionAt: null, state: "up" })).toBe(
      "spot reclaim announced",
    );
    expect([isVgpuGuest("VGPU"), isVgpuGuest("Pass-Through"), isVgpuGuest(null)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
