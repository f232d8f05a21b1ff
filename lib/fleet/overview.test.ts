import { describe, expect, it } from "vitest";
import type { CurrentGpu } from "@/lib/metrics/source.ts";
import { ATTENTION_PREVIEW } from "@/lib/zod/schemas/fleet.ts";
import { buildGrid } from "./grid.ts";
import {
  buildFleetIndex,
  buildFleetIndexYielding,
  fleetGpuPage,
  HOT_CELSIUS,
  INDEX_CHUNK,
} from "./overview.ts";
import type { HostLike } from "./summarize.ts";

const GIB = 1024 ** 3;

function gpu(hostId: string, index: number, over: Partial<CurrentGpu> = {}): CurrentGpu {
  return {
    hostId,
    hostname: hostId,
    uuid: `${hostId}-${index}`,
    index,
    name: "NVIDIA H100",
    util: 0.9,
    memUsedBytes: 10 * GIB,
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
    instanceType: "p5.48xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    state: "up",
    lastSeen: new Date(0),
    ...over,
  };
}

describe("buildFleetIndex", () => {
  const hosts = [
    host("a"),
    host("b", { team: "infra", provider: "gcp" }),
    host("spot", { pricingModel: "spot", interruptionPending: true }),
  ];
  const current = [
    gpu("a", 0),
    gpu("a", 1, { util: 0, processes: 0, memUsedBytes: 0 }), // empty idle
    gpu("a", 2, { util: 0.01, processes: 2 }), // held idle
    gpu("b", 0, { name: "NVIDIA A100", tempCelsius: HOT_CELSIUS }), // hot, otherwise busy
    gpu("b", 1, { name: "NVIDIA A100", reporting: false, util: null }),
    gpu("spot", 0, { util: 0 }), // idle, but its host is being reclaimed
  ];
  const index = buildFleetIndex(hosts, buildGrid(current), current);

  it("lists the GPUs that need attention, most urgent first, held idle before empty idle", () => {
    expect(index.attention.map((g) => [g.uuid, g.reason])).toEqual([
      ["spot-0", "interrupted"],
      ["b-0", "unhealthy"],
      ["b-1", "not_reporting"],
      ["a-2", "idle"],
      ["a-1", "idle"],
    ]);
    expect(index.overview.attention).toMatchObject({
      total: 5,
      byReason: { interrupted: 1, unhealthy: 1, not_reporting: 1, idle: 2 },
    });
  });

  it("aggregates per team, provider, model and state, largest group first", () => {
    const { groups } = index.overview;
    expect(groups.team.map((g) => [g.key, g.gpus, g.hosts, g.attention])).toEqual([
      ["research", 4, 2, 3],
      ["infra", 2, 1, 2],
    ]);
    expect(groups.provider.map((g) => g.key)).toEqual(["aws", "gcp"]);
    expect(groups.model.map((g) => [g.key, g.gpus])).toEqual([
      ["NVIDIA H100", 4],
      ["NVIDIA A100", 2],
    ]);
    expect(Object.fromEntries(groups.state.map((g) => [g.key, g.gpus]))).toEqual({
      busy: 2,
      empty_idle: 1,
      held_idle: 2, // the reclaimed spot GPU has a process
      not_reporting: 1,
    });
    const infra = groups.team[1];
    expect(infra?.statuses).toEqual({
      busy: 1,
      held_idle: 0,
      empty_idle: 0,
      mig: 0,
      not_reporting: 1,
    });
    // the mean is over reporting GPUs only
    expect(infra?.utilMean).toBeCloseTo(0.9);
  });

  it("sends only the first of a long problem list with the summary", () => {
    const many = Array.from({ length: ATTENTION_PREVIEW + 7 }, (_, i) =>
      gpu(`h${String(i).padStart(3, "0")}`, 0, { util: 0 }),
    );
    const big = buildFleetIndex(
      many.map((g) => host(g.hostId)),
      buildGrid(many),
      many,
    );
    expect(big.overview.attention.total).toBe(ATTENTION_PREVIEW + 7);
    expect(big.overview.attention.gpus).toHaveLength(ATTENTION_PREVIEW);
  });
});

describe("fleetGpuPage", () => {
  const current = Array.from({ length: 10 }, (_, i) =>
    gpu(`h${Math.floor(i / 4)}`, i % 4, { util: i % 3 === 0 ? 0 : 0.5, processes: 0 }),
  );
  const hosts = ["h0", "h1", "h2"].map((id) => host(id));
  const index = buildFleetIndex(hosts, buildGrid(current), current);

  it("pages a group in grid order and reports how many pages there are", () => {
    const p2 = fleetGpuPage(index, { by: "team", key: "research", page: 2, pageSize: 4 });
    expect(p2).toMatchObject({ total: 10, page: 2, pages: 3 });
    expect(p2.gpus.map((g) => g.uuid)).toEqual(["h1-0", "h1-1", "h1-2", "h1-3"]);
    const p3 = fleetGpuPage(index, { by: "team", key: "research", page: 3, pageSize: 4 });
    expect(p3.gpus.map((g) => g.uuid)).toEqual(["h2-0", "h2-1"]);
  });

  it("answers an unknown key or a page past the end with no GPUs", () => {
    expect(fleetGpuPage(index, { by: "team", key: "nobody", page: 1, pageSize: 4 })).toMatchObject({
      total: 0,
      pages: 0,
      gpus: [],
    });
    expect(fleetGpuPage(index, { by: "team", key: "research", page: 9, pageSize: 4 }).gpus).toEqual(
      [],
    );
  });

  it("pages the problem list, all reasons or one", () => {
    const all = fleetGpuPage(index, { by: "attention", page: 1, pageSize: 100 });
    expect(all.key).toBe("all");
    expect(all.gpus.map((g) => g.uuid)).toEqual(["h0-0", "h0-3", "h1-2", "h2-1"]);
    expect(
      fleetGpuPage(index, { by: "attention", key: "not_reporting", page: 1, pageSize: 100 }).total,
    ).toBe(0);
  });
});

describe("buildFleetIndexYielding", () => {
  it("builds the same index as buildFleetIndex, pausing every INDEX_CHUNK GPUs", async () => {
    const hosts = Array.from({ length: 625 }, (_, i) =>
      host(`h${i}`, { team: i % 3 === 0 ? "infra" : "research", interruptionPending: i === 7 }),
    );
    const current = hosts.flatMap((h, i) =>
      Array.from({ length: 8 }, (_, k) =>
        gpu(h.id, k, {
          util: (i * 8 + k) % 5 === 0 ? 0 : 0.8,
          tempCelsius: k === 3 ? HOT_CELSIUS + 1 : 60,
          reporting: (i + k) % 97 !== 0,
        }),
      ),
    );
    const grid = buildGrid(current);
    expect(grid.length).toBe(5000);
    let pauses = 0;
    const index = await buildFleetIndexYielding(hosts, grid, current, async () => {
      pauses += 1;
    });
    // 2 pauses inside the 5,000 GPUs (after 2,000 and 4,000), 1 before the summaries
    expect(pauses).toBe(Math.ceil(grid.length / INDEX_CHUNK));
    const sync = buildFleetIndex(hosts, grid, current);
    expect(index.overview).toEqual(sync.overview);
    expect(index.attention.map((g) => g.uuid)).toEqual(sync.attention.map((g) => g.uuid));
    expect(index.overview.attention.byReason.unhealthy).toBeGreaterThan(0);
    for (const by of ["team", "provider", "model", "state"] as const) {
      expect([...index.groups[by].keys()]).toEqual([...sync.groups[by].keys()]);
    }
  });
});
