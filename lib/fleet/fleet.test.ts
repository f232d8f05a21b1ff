import { describe, expect, it } from "vitest";
import type { CurrentGpu } from "@/lib/metrics/source.ts";
import { classifyGpu, HELD_MEMORY_BYTES } from "./classify-gpu.ts";
import { buildGrid, groupByHost } from "./grid.ts";
import { bannerFor, toHealthDto } from "./health.ts";
import {
  buildInstanceRows,
  gpuShareMicros,
  summarizeFleet,
  type HostLike,
  type HostPrice,
} from "./summarize.ts";

const GIB = 1024 ** 3;

function gpu(over: Partial<CurrentGpu> & { hostId: string; uuid: string }): CurrentGpu {
  return {
    hostname: over.hostId,
    index: 0,
    name: "NVIDIA A100-SXM4-80GB",
    util: 0.9,
    memUsedBytes: 40 * GIB,
    memTotalBytes: 80 * GIB,
    powerWatts: 300,
    tempCelsius: 60,
    processes: 1,
    lastSeen: new Date(0),
    reporting: true,
    parentUuid: null,
    migProfile: null,
    ...over,
  };
}

function host(id: string, over: Partial<HostLike> = {}): HostLike {
  return {
    id,
    hostname: id,
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    state: "up",
    lastSeen: new Date(0),
    ...over,
  };
}

describe("classifyGpu", () => {
  const base = { reporting: true, util: 0.5, memUsedBytes: 0, processes: 0, migSlices: 0 };
  it("separates busy, held-idle, empty-idle, MIG and silent GPUs", () => {
    expect(classifyGpu(base)).toBe("busy");
    expect(classifyGpu({ ...base, util: 0.05 })).toBe("busy");
    expect(classifyGpu({ ...base, util: 0.049 })).toBe("empty_idle");
    expect(classifyGpu({ ...base, util: 0, processes: 1 })).toBe("held_idle");
    expect(classifyGpu({ ...base, util: 0, memUsedBytes: HELD_MEMORY_BYTES + 1 })).toBe(
      "held_idle",
    );
    expect(classifyGpu({ ...base, util: 0, memUsedBytes: HELD_MEMORY_BYTES })).toBe("empty_idle");
    expect(classifyGpu({ ...base, util: null, migSlices: 3 })).toBe("mig");
    expect(classifyGpu({ ...base, reporting: false })).toBe("not_reporting");
    expect(classifyGpu({ ...base, util: null })).toBe("not_reporting");
  });
});

describe("buildGrid", () => {
  it("folds MIG slices into their parent and orders by host then index", () => {
    const grid = buildGrid([
      gpu({ hostId: "b", uuid: "b1", index: 1 }),
      gpu({ hostId: "b", uuid: "b0", index: 0, util: null, memUsedBytes: null }),
      gpu({ hostId: "b", uuid: "b0:gi1", parentUuid: "b0", util: null, memUsedBytes: 5 * GIB }),
      gpu({ hostId: "b", uuid: "b0:gi2", parentUuid: "b0", util: null, memUsedBytes: 7 * GIB }),
      gpu({ hostId: "a", uuid: "a0", reporting: false, util: null }),
    ]);
    expect(grid.map((g) => g.uuid)).toEqual(["a0", "b0", "b1"]);
    expect(grid[0]?.status).toBe("not_reporting");
    expect(grid[1]).toMatchObject({ status: "mig", migSlices: 2, memUsedBytes: 12 * GIB });
    expect(groupByHost(grid).map((h) => [h.hostId, h.gpus.length])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
  });
});

describe("summarizeFleet", () => {
  const hosts = [
    host("h1"),
    host("h2", { provider: "onprem", instanceType: "dgx-a100" }),
    host("h3", { state: "down" }),
  ];
  const grid = buildGrid([
    gpu({ hostId: "h1", uuid: "h1-0", index: 0, util: 0.8 }),
    gpu({ hostId: "h1", uuid: "h1-1", index: 1, util: 0.01, processes: 1 }),
    gpu({ hostId: "h1", uuid: "h1-2", index: 2, util: 0, processes: 0, memUsedBytes: 0 }),
    gpu({ hostId: "h2", uuid: "h2-0", util: 0.4 }),
    gpu({ hostId: "h3", uuid: "h3-0", reporting: false, util: null, memUsedBytes: null }),
  ]);
  const p1: HostPrice = { perHourMicros: 30_000_000n, currency: "USD", gpuCount: 8 };
  const prices = new Map<string, HostPrice | null>([
    ["h1", p1],
    ["h2", null],
    ["h3", { perHourMicros: 5_000_000n, currency: "USD", gpuCount: 1 }],
  ]);

  it("computes the headline figures", () => {
    const s = summarizeFleet(hosts, grid, prices);
    expect(s.hosts).toEqual({ total: 3, up: 2, down: 1, unknown: 0 });
    expect(s.gpus).toEqual({ known: 5, reporting: 4 });
    expect(s.utilMean).toBeCloseTo((0.8 + 0.01 + 0 + 0.4) / 4);
    expect(s.memory).toEqual({ usedBytes: 120 * GIB, totalBytes: 320 * GIB });
    // h3 is down, h2 is unpriced: burn is h1's price only
    expect(s.burn).toEqual({ perHourMicros: "30000000", currency: "USD", unpricedHosts: 1 });
    // two idle GPUs on h1, each a third of its price (3 GPUs reported)
    expect(s.idle).toEqual({ count: 2, heldIdle: 1, emptyIdle: 1, perHourMicros: "20000000" });
  });

  it("splits the price per GPU, falling back to the catalogue count", () => {
    expect(gpuShareMicros(p1, 3)).toBe(10_000_000n);
    expect(gpuShareMicros(p1, 0)).toBe(3_750_000n);
  });

  it("builds one row per host, unpriced as null", () => {
    const rows = buildInstanceRows(hosts, grid, prices);
    expect(rows.map((r) => [r.id, r.gpus, r.gpusReporting, r.pricePerHourMicros])).toEqual([
      ["h1", 3, 3, "30000000"],
      ["h2", 1, 1, null],
      ["h3", 1, 0, "5000000"],
    ]);
    expect(rows[0]?.utilMean).toBeCloseTo(0.27);
    expect(rows[2]).toMatchObject({ state: "down", utilMean: null, memUsedBytes: null });
  });
});

describe("health and banner", () => {
  it("marks old data stale", () => {
    const h = { ok: true, lastSuccess: new Date(1_000), error: null };
    expect(toHealthDto(h, "embedded", 20_000, 35_000).stale).toBe(false);
    expect(toHealthDto(h, "embedded", 60_000, 35_000).stale).toBe(true);
    expect(toHealthDto({ ...h, lastSuccess: null }, "embedded", 60_000, 1).stale).toBe(false);
    expect(toHealthDto({ ...h, ok: false }, "prometheus", 0, 1).stale).toBe(true);
  });
  it("prefers a failed request over a stale source, and says when data was last good", () => {
    const health = toHealthDto(
      { ok: false, lastSuccess: new Date(5_000), error: "connection refused" },
      "prometheus",
      100_000,
      30_000,
    );
    expect(bannerFor({ health, requestError: null, dataUpdatedAt: 0 })).toEqual({
      kind: "stale",
      message: "Metrics source (prometheus) is not current: connection refused",
      lastGood: new Date(5_000).toISOString(),
    });
    expect(
      bannerFor({ health: undefined, requestError: "HTTP 500", dataUpdatedAt: 9_000 }),
    ).toMatchObject({ kind: "error", lastGood: new Date(9_000).toISOString() });
    const fine = { ...health, ok: true, stale: false, error: null };
    expect(bannerFor({ health: fine, requestError: null, dataUpdatedAt: 1 })).toBeNull();
  });
});
