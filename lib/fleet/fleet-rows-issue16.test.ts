import { describe, expect, it } from "vitest";
import type { CurrentGpu } from "@/lib/metrics/source.ts";
import { instanceRowSchema } from "@/lib/zod/schemas/instance.ts";
import { buildGrid } from "./grid.ts";
import { reclaimNote, vgpuBadgeTitle } from "./host-facts.ts";
import { withVgpuGuests } from "./load-fleet-snapshot.ts";
import { buildInstanceRows, summarizeFleet, toHostState, type HostLike } from "./summarize.ts";

// Fleet rows with issue 16's facts: spot reclaim notices, the interrupted state and vGPU guests.

const GIB = 1024 ** 3;

function gpu(hostId: string, uuid: string): CurrentGpu {
  return {
    hostId,
    hostname: hostId,
    uuid,
    index: 0,
    name: "NVIDIA A10",
    util: 0.5,
    memUsedBytes: 4 * GIB,
    memTotalBytes: 24 * GIB,
    powerWatts: 100,
    tempCelsius: 50,
    processes: 1,
    lastSeen: new Date(0),
    reporting: true,
    parentUuid: null,
    migProfile: null,
  };
}

function host(id: string, over: Partial<HostLike> = {}): HostLike {
  return {
    id,
    hostname: id,
    provider: "aws",
    instanceType: "g5.xlarge",
    region: "us-east-1",
    pricingModel: "spot",
    team: "research",
    project: "llm",
    state: "up",
    lastSeen: new Date(0),
    ...over,
  };
}

const AT = new Date("2026-11-20T14:32:00Z");

describe("fleet rows for spot reclaims and vGPU guests", () => {
  const stored = [
    host("spot", { interruptionPending: true, interruptionAt: AT }),
    host("gone", { state: "interrupted", interruptionPending: true, interruptionAt: null }),
    host("vgpu"),
    host("plain", { state: "retiring?" }),
  ];
  const hosts = withVgpuGuests(stored, [
    { hostId: "vgpu", virtualizationMode: "VGPU" },
    { hostId: "vgpu", virtualizationMode: "vgpu" },
    { hostId: "vgpu", virtualizationMode: "Pass-Through" },
    { hostId: "plain", virtualizationMode: "None" },
    { hostId: "plain", virtualizationMode: null },
  ]);
  const grid = buildGrid([gpu("spot", "s0"), gpu("vgpu", "v0"), gpu("vgpu", "v1")]);
  const rows = buildInstanceRows(hosts, grid, new Map());

  it("counts vGPU guests per host, case-insensitively, and nothing else", () => {
    expect(hosts.map((h) => [h.id, h.vgpuGuests])).toEqual([
      ["spot", 0],
      ["gone", 0],
      ["vgpu", 2],
      ["plain", 0],
    ]);
  });

  it("carries the reclaim notice, the interrupted state and the vGPU count into valid rows", () => {
    expect(
      rows.map((r) => [r.id, r.state, r.interruptionPending, r.interruptionAt, r.vgpuGuests]),
    ).toEqual([
      ["spot", "up", true, "2026-11-20T14:32:00.000Z", 0],
      ["gone", "interrupted", true, null, 0],
      ["vgpu", "up", false, null, 2],
      ["plain", "unknown", false, null, 0],
    ]);
    for (const r of rows) expect(instanceRowSchema.parse(r)).toEqual(r);
  });

  it("gives hosts without the new facts safe defaults", () => {
    const [r] = buildInstanceRows([host("old")], [], new Map());
    expect(r).toMatchObject({ interruptionPending: false, interruptionAt: null, vgpuGuests: 0 });
  });

  it("passes interrupted through and leaves reclaimed hosts out of up / down", () => {
    expect(toHostState("interrupted")).toBe("interrupted");
    expect(toHostState("up")).toBe("up");
    expect(toHostState("down")).toBe("down");
    expect(toHostState("retired")).toBe("unknown");
    expect(summarizeFleet(hosts, grid, new Map()).hosts).toEqual({
      total: 4,
      up: 2,
      down: 0,
      unknown: 1,
    });
  });

  it("gives the table its reclaim note and vGPU badge title", () => {
    const [spot, gone, vgpu] = rows;
    expect(spot && reclaimNote(spot)).toBe("spot reclaim announced for 14:32 UTC");
    expect(gone && reclaimNote(gone)).toBe(
      "spot reclaim announced (reclaimed: not counted as an outage)",
    );
    expect(vgpu && reclaimNote(vgpu)).toBeNull();
    expect(spot && vgpuBadgeTitle(spot)).toBeNull();
    expect(vgpu && vgpuBadgeTitle(vgpu)).toBe(
      "vGPU guest: 2 of 2 GPUs virtual, each backed by a share of a physical GPU",
    );
    expect(vgpuBadgeTitle({ vgpuGuests: 1, gpus: 0 })).toBe(
      "vGPU guest: 1 of 1 GPU virtual, each backed by a share of a physical GPU",
    );
  });
});
