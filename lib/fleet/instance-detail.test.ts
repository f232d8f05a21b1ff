import { describe, expect, it } from "vitest";
import type { CurrentGpu } from "@/lib/metrics/source.ts";
import type { PriceRow } from "@/lib/pricing/types.ts";
import { buildGrid } from "./grid.ts";
import { priceHosts } from "./host-prices.ts";
import { idleNowPerHour, shapeInstanceGpus } from "./instance-detail.ts";

function g(uuid: string, over: Partial<CurrentGpu> = {}): CurrentGpu {
  return {
    hostId: "h1",
    hostname: "gpu-01",
    uuid,
    index: 0,
    name: "NVIDIA A100-SXM4-80GB",
    util: 0.5,
    memUsedBytes: 1e9,
    memTotalBytes: 8e10,
    powerWatts: 300,
    tempCelsius: 60,
    processes: 1,
    lastSeen: new Date("2026-11-10T12:00:00Z"),
    reporting: true,
    parentUuid: null,
    migProfile: null,
    ...over,
  };
}

describe("shapeInstanceGpus", () => {
  const current = [
    g("u1", { index: 1, util: 0, processes: 0, memUsedBytes: 0 }),
    g("u0", { index: 0, util: null, memUsedBytes: null }),
    g("u0:gi10", { parentUuid: "u0", migProfile: "1g.10gb", util: null }),
    g("u0:gi2", { parentUuid: "u0", migProfile: "3g.40gb", util: null }),
    g("other", { hostId: "h2" }),
  ];
  const grid = buildGrid(current);
  const processes = [
    { gpuUuid: "u0:gi2", pid: 7, processName: "serve", usedMemoryBytes: 5e9 },
    { gpuUuid: "u1", pid: 9, processName: "idle", usedMemoryBytes: 1e8 },
    { gpuUuid: "u0:gi10", pid: 8, processName: "big", usedMemoryBytes: 9e9 },
  ];
  const d = shapeInstanceGpus("h1", current, grid, processes);

  it("keeps this host's whole GPUs in index order with their grid status", () => {
    expect(d.gpus.map((x) => [x.index, x.status])).toEqual([
      [0, "mig"],
      [1, "empty_idle"],
    ]);
    // the MIG parent shows its slices' memory
    expect(d.gpus[0]?.memUsedBytes).toBe(2e9);
  });

  it("lists MIG slices naturally ordered and maps processes to GPU indexes", () => {
    expect(d.mig.map((m) => [m.uuid, m.parentIndex, m.profile])).toEqual([
      ["u0:gi2", 0, "3g.40gb"],
      ["u0:gi10", 0, "1g.10gb"],
    ]);
    expect(d.processes.map((p) => [p.gpuIndex, p.pid])).toEqual([
      [0, 8],
      [0, 7],
      [1, 9],
    ]);
  });

  it("names each GPU's holders (its slices' too), largest memory first, and each process's", () => {
    const who = (user: string, ref: string) =>
      ({ user, kind: "container", ref, name: null, namespace: null, account: null }) as const;
    const [serve, idle, big] = processes;
    if (!serve || !idle || !big) throw new Error("fixture");
    const held = shapeInstanceGpus("h1", current, grid, [
      { ...serve, holder: who("bob", "b0b") },
      { ...idle, holder: who("carol", "ca1") },
      { ...big, holder: who("alice", "a11") },
      { gpuUuid: "u1", pid: 10, processName: "x", usedMemoryBytes: 1, holder: null },
    ]);
    expect(held.gpus.map((x) => x.holders)).toEqual([
      ["alice · container a11", "bob · container b0b"],
      ["carol · container ca1"],
    ]);
    expect(held.processes.map((p) => p.holder)).toEqual([
      "alice · container a11",
      "bob · container b0b",
      "carol · container ca1",
      null,
    ]);
    // the viewer's namer (pseudonyms) decides every name shown
    const named = shapeInstanceGpus(
      "h1",
      current,
      grid,
      processes.map((p) => ({ ...p, holder: who("bob", "b") })),
      () => "user-x",
    );
    expect(named.gpus[0]?.holders).toEqual(["user-x"]);
    expect(d.gpus.every((x) => x.holders.length === 0)).toBe(true);
  });

  it("prices the GPUs idle now at their share of the host price", () => {
    expect(
      idleNowPerHour(d.gpus, { perHourMicros: 10_000_001n, currency: "USD", gpuCount: 2 }),
    ).toBe(5_000_001n);
    expect(idleNowPerHour(d.gpus, null)).toBe(0n);
  });
});

describe("priceHosts", () => {
  const row = (over: Partial<PriceRow>): PriceRow => ({
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "*",
    pricingModel: "on_demand",
    gpuModel: "A100",
    gpuCount: 8,
    gpuMemoryBytes: 40n,
    usdPerHourMicros: 32_772_000n,
    currency: "USD",
    effectiveFrom: new Date("2024-01-01T00:00:00Z"),
    source: "test",
    sourceDate: "2024-01-01",
    note: null,
    ...over,
  });
  it("finds each host's price in effect, and null (unpriced) where none matches", () => {
    const hosts = [
      {
        id: "a",
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        pricingModel: "on_demand",
      },
      {
        id: "b",
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        pricingModel: "spot",
      },
      {
        id: "c",
        provider: "onprem",
        instanceType: "dgx-a100",
        region: "dc1",
        pricingModel: "reserved",
      },
    ];
    const rows = [
      row({}),
      row({ usdPerHourMicros: 40_000_000n, effectiveFrom: new Date("2027-01-01T00:00:00Z") }),
    ];
    const prices = priceHosts(hosts, rows, new Date("2026-11-10T00:00:00Z"));
    expect(prices.get("a")).toEqual({
      perHourMicros: 32_772_000n,
      currency: "USD",
      gpuCount: 8,
      note: "fallback (no us-east-1 price)",
    });
    expect(prices.get("b")).toBeNull();
    expect(prices.get("c")).toBeNull();
  });
});
