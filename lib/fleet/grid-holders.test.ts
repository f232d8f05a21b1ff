import { describe, expect, it } from "vitest";
import type { Holder } from "../core/holders.ts";
import type { MetricsSource, ProcessInfo } from "../metrics/source.ts";
import { UNUSED_WINDOW_READS } from "../testing/fake-metrics.ts";
import type { FleetGpu } from "../zod/schemas/fleet.ts";
import { withGridHolders } from "./grid-holders.ts";

// The fleet grid's tooltip names who holds each GPU (issue 24): its processes' holders, MIG
// slices' included, largest memory first, named as the caller's namer says; only hosts on the page
// that run a process are read, and one that cannot be read shows nobody.

const alice: Holder = {
  user: "alice",
  kind: "process",
  ref: "python",
  name: "python",
  namespace: null,
  account: null,
};
const bob: Holder = {
  user: "bob",
  kind: "container",
  ref: "0123456789ab",
  name: "train",
  namespace: null,
  account: null,
};
const job: Holder = {
  user: "dave",
  kind: "job",
  ref: "4242",
  name: null,
  namespace: null,
  account: "physics",
};

function gpu(
  hostId: string,
  uuid: string,
  processes: number | null,
  status: FleetGpu["status"] = "busy",
): FleetGpu {
  return {
    uuid,
    hostId,
    hostname: `host-${hostId}`,
    index: Number(uuid.slice(-1)),
    name: "NVIDIA H100",
    util: 0.9,
    memUsedBytes: 1e9,
    memTotalBytes: 80e9,
    processes,
    migSlices: status === "mig" ? 2 : 0,
    status,
    reason: null,
  };
}

const proc = (
  gpuUuid: string,
  holder: Holder | null,
  mem: number,
  extra: Partial<ProcessInfo> = {},
): ProcessInfo => ({
  gpuUuid,
  pid: mem,
  processName: "python",
  usedMemoryBytes: mem,
  holder,
  ...extra,
});

function source(byHost: Record<string, ProcessInfo[] | Error>, asked: string[]): MetricsSource {
  const unused = () => Promise.reject(new Error("not used by this test"));
  return {
    mode: "embedded",
    currentGpus: unused,
    fleetSeries: unused,
    gpuSeries: unused,
    health: unused,
    ...UNUSED_WINDOW_READS,
    processes: (hostId) => {
      asked.push(hostId);
      const v = byHost[hostId] ?? [];
      return v instanceof Error ? Promise.reject(v) : Promise.resolve(v);
    },
  };
}

describe("withGridHolders", () => {
  it("names each GPU's holders, largest memory first, MIG slices' on their GPU", async () => {
    const asked: string[] = [];
    const src = source(
      {
        a: [
          proc("a0", alice, 10),
          proc("a0", bob, 30),
          proc("a0", alice, 25),
          proc("a1", null, 50),
          proc("elsewhere", job, 99),
        ],
        m: [proc("m0", job, 5, { gpuInstanceId: 1 }), proc("m0", alice, 3, { gpuInstanceId: 2 })],
      },
      asked,
    );
    const page = [
      gpu("a", "a0", 3),
      gpu("a", "a1", 1),
      gpu("e", "e0", 0, "empty_idle"),
      gpu("m", "m0", null, "mig"),
    ];
    const out = await withGridHolders(page, src);
    expect(out.map((g) => [g.uuid, g.holders])).toEqual([
      ["a0", ["alice · python", "bob · container train"]],
      ["a1", []],
      ["e0", []],
      ["m0", ["dave · job 4242", "alice · python"]],
    ]);
    // the host with no process on the page is not read
    expect(asked.sort()).toEqual(["a", "m"]);
    expect(out[0]).toMatchObject({ hostname: "host-a", status: "busy", reason: null });
  });

  it("names holders through the caller's namer (pseudonyms for viewers)", async () => {
    const out = await withGridHolders(
      [gpu("a", "a0", 1)],
      source({ a: [proc("a0", alice, 1)] }, []),
      (h) => `user-${h.user?.length ?? 0} · ${h.kind}`,
    );
    expect(out[0]?.holders).toEqual(["user-5 · process"]);
  });

  it("shows nobody for a host whose processes cannot be read, and reads the others", async () => {
    const asked: string[] = [];
    const hosts = Array.from({ length: 20 }, (_, i) => `h${i}`);
    const byHost: Record<string, ProcessInfo[] | Error> = Object.fromEntries(
      hosts.map((h) => [h, [proc(`${h}-0`, bob, 1)]]),
    );
    byHost.h3 = new Error("Prometheus unreachable");
    const out = await withGridHolders(
      hosts.map((h) => gpu(h, `${h}-0`, 1)),
      source(byHost, asked),
    );
    expect(asked.sort()).toEqual([...hosts].sort());
    expect(out.filter((g) => g.holders.length === 0).map((g) => g.hostId)).toEqual(["h3"]);
  });
});
