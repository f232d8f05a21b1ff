import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNUSED_WINDOW_READS } from "../testing/fake-metrics.ts";
import type { Db } from "@/lib/db.ts";
import type { CurrentGpu, MetricsSource } from "@/lib/metrics/source.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { rebuildUsageDays } from "@/lib/ledger/usage-days.ts";
import { NotFoundError, SourceUnavailableError } from "../core/errors.ts";
import { getFleetSeries } from "./get-fleet-series.ts";
import { getFleetSummary } from "./get-fleet-summary.ts";
import { getInstance } from "./get-instance.ts";
import { getInstanceSeries } from "./get-instance-series.ts";
import { listInstances } from "./list-instances.ts";

// The server verbs against a real (temporary) store and a fake metrics source.

const GIB = 1024 ** 3;
const now = new Date("2026-11-10T12:00:30Z");
let db: Db;
let hostA = "";
let hostB = "";

function gpu(hostId: string, hostname: string, i: number, util: number | null): CurrentGpu {
  return {
    hostId,
    hostname,
    uuid: `${hostname}-gpu${i}`,
    index: i,
    name: "NVIDIA A100-SXM4-80GB",
    util,
    memUsedBytes: util === null ? null : util > 0.05 ? 10 * GIB : 0,
    memTotalBytes: 80 * GIB,
    powerWatts: 200,
    tempCelsius: 50,
    processes: util !== null && util > 0.05 ? 1 : 0,
    lastSeen: now,
    reporting: util !== null,
    parentUuid: null,
    migProfile: null,
  };
}

function fakeSource(over: Partial<MetricsSource> = {}): MetricsSource {
  return {
    mode: "embedded",
    ...UNUSED_WINDOW_READS,
    currentGpus: async () => [
      gpu(hostA, "gpu-a", 0, 0.9),
      gpu(hostA, "gpu-a", 1, 0.0),
      gpu(hostB, "dgx-a100", 0, null),
    ],
    fleetSeries: async (r) => ({
      util: [{ t: r.from.getTime(), v: 0.5 }],
      memUsedBytes: [],
      gpusReporting: [],
    }),
    gpuSeries: async () => [
      {
        uuid: "gpu-a-gpu1",
        index: 1,
        name: "A100",
        util: [],
        memUsedBytes: [],
        powerWatts: [],
        tempCelsius: [],
        smClockHz: [],
      },
    ],
    processes: async () => [
      { gpuUuid: "gpu-a-gpu0", pid: 42, processName: "python", usedMemoryBytes: 10 * GIB },
    ],
    health: async () => ({ ok: true, lastSuccess: now, error: null }),
    ...over,
  };
}

beforeAll(async () => {
  db = makeTestDb().db;
  await db.priceEntry.create({
    data: {
      provider: "aws",
      instanceType: "p4d.24xlarge",
      pricingModel: "on_demand",
      gpuModel: "A100",
      gpuCount: 8,
      gpuMemoryBytes: 40n * BigInt(GIB),
      usdPerHourMicros: 32_000_000n,
      effectiveFrom: new Date("2024-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2024-01-01",
    },
  });
  const a = await db.host.create({
    data: {
      hostname: "gpu-a",
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      team: "research",
      state: "up",
      lastSeen: now,
    },
  });
  const b = await db.host.create({
    data: { hostname: "dgx-a100", provider: "onprem", instanceType: "dgx-a100", state: "down" },
  });
  hostA = a.id;
  hostB = b.id;
  await db.usageHour.create({
    data: {
      hourStart: new Date("2026-11-10T10:00:00Z"),
      hostId: hostA,
      gpuKey: "host",
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      pricingModel: "on_demand",
      team: "research",
      project: "llm",
      upSeconds: 3600,
      samples: 240,
      idleSeconds: 0,
      priced: true,
      costMicros: 32_000_000n,
      idleCostMicros: 4_000_000n,
      source: "test",
    },
  });
  await rebuildUsageDays(db); // the month's spend is read from the day roll-up
});

afterAll(async () => {
  await db.$disconnect();
});

describe("fleet verbs", () => {
  it("summarizes the fleet with prices from the catalogue", async () => {
    const s = await getFleetSummary({ client: db, source: fakeSource(), now, scope: null });
    expect(s.gpus).toEqual({ known: 3, reporting: 2 });
    expect(s.hosts).toMatchObject({ total: 2, up: 1, down: 1 });
    expect(s.burn).toEqual({ perHourMicros: "32000000", currency: "USD", unpricedHosts: 0 });
    // one idle GPU of two reported on gpu-a: half its price
    expect(s.idle).toMatchObject({ count: 1, emptyIdle: 1, perHourMicros: "16000000" });
    expect(s.month).toMatchObject({ month: "2026-11", spendMicros: "32000000" });
    expect(s.health.stale).toBe(false);
  });

  it("falls back to the stored inventory, marked stale, when the source fails", async () => {
    await db.gpu.create({
      data: { hostId: hostA, uuid: "gpu-a-gpu0", index: 0, name: "A100", memoryTotalBytes: 1n },
    });
    const broken = fakeSource({
      currentGpus: async () => {
        throw new Error("connection refused");
      },
    });
    const s = await getFleetSummary({ client: db, source: broken, now, scope: null });
    expect(s.health).toMatchObject({ ok: false, stale: true, error: "connection refused" });
    expect(s.attention.gpus.map((g) => [g.status, g.reason])).toEqual([
      ["not_reporting", "not_reporting"],
    ]);
  });

  it("lists instances filtered and sorted, unpriced as null", async () => {
    const all = await listInstances(
      { sort: "price", dir: "desc" },
      { client: db, source: fakeSource(), now, scope: null },
    );
    expect(all.rows.map((r) => [r.hostname, r.pricePerHourMicros])).toEqual([
      ["gpu-a", "32000000"],
      ["dgx-a100", null],
    ]);
    const down = await listInstances(
      { sort: "hostname", dir: "asc", state: "down" },
      { client: db, source: fakeSource(), now, scope: null },
    );
    expect(down.rows.map((r) => r.hostname)).toEqual(["dgx-a100"]);
    expect(down.total).toBe(2);
  });

  it("describes one instance with its processes and month cost", async () => {
    const d = await getInstance(hostA, { client: db, source: fakeSource(), now, scope: null });
    expect(d.host.hostname).toBe("gpu-a");
    expect(d.gpus.map((g) => g.status)).toEqual(["busy", "empty_idle"]);
    expect(d.processes).toEqual([
      {
        gpuUuid: "gpu-a-gpu0",
        gpuIndex: 0,
        pid: 42,
        processName: "python",
        usedMemoryBytes: 10 * GIB,
        // the fake source's process names no holder (no user, container, pod or job labels)
        holder: null,
      },
    ]);
    expect(d.cost).toMatchObject({
      pricePerHourMicros: "32000000",
      monthToDateMicros: "32000000",
      idleMonthToDateMicros: "4000000",
      idleNowPerHourMicros: "16000000",
    });
    await expect(
      getInstance("nope", { client: db, source: fakeSource(), now, scope: null }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("returns series and maps a failing source to SourceUnavailableError", async () => {
    const f = await getFleetSeries("6h", { source: fakeSource(), now, scope: null });
    expect(f.util).toEqual([{ t: now.getTime() - 6 * 3600_000, v: 0.5 }]);
    const s = await getInstanceSeries(hostA, "1h", {
      client: db,
      source: fakeSource(),
      now,
      scope: null,
    });
    expect(s.gpus.map((g) => g.index)).toEqual([1]);
    const broken = fakeSource({
      gpuSeries: async () => {
        throw new Error("timeout");
      },
    });
    await expect(
      getInstanceSeries(hostA, "1h", { client: db, source: broken, now, scope: null }),
    ).rejects.toBeInstanceOf(SourceUnavailableError);
    await expect(
      getInstanceSeries("nope", "1h", { client: db, source: fakeSource(), now, scope: null }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("narrows every verb to a team-limited scope", async () => {
    const deps = { client: db, source: fakeSource(), now, scope: ["research"] };
    const s = await getFleetSummary(deps);
    expect(s.hosts).toMatchObject({ total: 1, up: 1, down: 0 });
    expect(s.gpus).toEqual({ known: 2, reporting: 2 });
    expect(s.month).toMatchObject({ spendMicros: "32000000", budgetMicros: null });
    const none = await getFleetSummary({ ...deps, scope: ["nobody"] });
    expect(none.hosts.total).toBe(0);
    expect(none.month.spendMicros).toBe("0");
    const list = await listInstances({ sort: "hostname", dir: "asc" }, deps);
    expect(list.rows.map((r) => r.hostname)).toEqual(["gpu-a"]);
    expect(list.total).toBe(1);
    await expect(getInstance(hostB, deps)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getInstanceSeries(hostB, "1h", deps)).rejects.toBeInstanceOf(NotFoundError);
    // the fleet series is rebuilt from the scope's hosts' GPU series, not the fleet aggregate
    const f = await getFleetSeries("1h", deps);
    expect(f.util).toEqual([]);
    expect(f.gpusReporting).toEqual([]);
  });
});
