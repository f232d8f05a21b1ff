import { describe, expect, it } from "vitest";
import type { Holder } from "../core/holders.ts";
import type { GpuSample, HostSample } from "../metrics/source.ts";
import { detectRuns, runId, runLabel, runsInSample, searchStart } from "./holder-runs.ts";

// Runs of jobs and pods from holder minutes: a run starts at its first minute seen, survives gaps
// the app recorded nothing for, failed scrapes and short absences, and ends after 5 answered
// minutes without it; two jobs on one host are two runs; a pod is told apart by its namespace.

const T0 = Date.UTC(2026, 10, 20);
const M = 60_000;

function holder(kind: Holder["kind"], ref: string, extra: Partial<Holder> = {}): Holder {
  return { user: "alice", kind, ref, name: null, namespace: null, account: null, ...extra };
}

function gpu(uuid: string, holders: Holder[], migFraction?: number): GpuSample {
  return {
    uuid,
    model: "H100",
    util: 0.9,
    memUsedBytes: 1,
    memTotalBytes: 2,
    processes: holders.length,
    holders: holders.map((h) => ({ holder: h, memBytes: 1 })),
    ...(migFraction === undefined ? {} : { migFraction, migParentUuid: "parent" }),
  };
}

/** minute i: answered, with these GPUs */
const at = (i: number, gpus: GpuSample[], up = true): HostSample => ({
  t: new Date(T0 + i * M),
  up,
  gpus: up ? gpus : [],
});

const job = (id: string, user = "alice") => holder("job", id, { user });

describe("detectRuns", () => {
  it("dates a run from its first minute seen; no data and failed scrapes are no break", () => {
    const j = job("4242");
    const samples = [
      ...[0, 1, 2, 3, 4, 5].map((i) => at(i, [gpu("g0", [])])),
      ...[6, 7, 8].map((i) => at(i, [gpu("g0", [j])])),
      // minutes 9..59 recorded nothing (the app was down); 60 a failed scrape
      at(60, [], false),
      ...[61, 62].map((i) => at(i, [gpu("g0", [j])])),
    ];
    const runs = detectRuns(samples);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: "job:4242",
      kind: "job",
      start: new Date(T0 + 6 * M),
      lastSeen: new Date(T0 + 62 * M),
      live: true,
      startKnown: true,
      gpus: 1,
    });
  });

  it("tolerates a short absence and ends after five answered minutes without the run", () => {
    const j = job("7");
    const seen = (i: number) => at(i, [gpu("g0", [j])]);
    const none = (i: number) => at(i, [gpu("g0", [])]);
    const samples = [
      seen(0),
      none(1),
      none(2),
      seen(3), // absent 2 minutes: the same run
      ...[4, 5, 6, 7, 8].map(none), // absent 5: ended
      seen(9), // the same job id again: a new run, whose start is known
    ];
    const runs = detectRuns(samples);
    expect(runs.map((r) => [r.start.getTime() - T0, r.lastSeen.getTime() - T0, r.live])).toEqual([
      [0, 3 * M, false],
      [9 * M, 9 * M, true],
    ]);
    // the first was already holding at the window's first minute: it may have begun earlier
    expect(runs.map((r) => r.startKnown)).toEqual([false, true]);
  });

  it("a pod whose namespace is learnt later stays one run", () => {
    const bare = holder("pod", "5f0c-1b2a", { user: "1000" });
    const named = { ...bare, namespace: "ml", name: "trainer-0" };
    const runs = detectRuns([at(0, [gpu("g0", [bare])]), at(1, [gpu("g0", [named])])]);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.holder).toEqual(named);
  });

  it("two jobs on one host are two runs, each with its own GPUs", () => {
    const a = job("100", "alice");
    const b = job("200", "bob");
    const samples = [0, 1, 2].map((i) =>
      at(i, [gpu("g0", [a]), gpu("g1", [a]), gpu("g2", i >= 1 ? [b] : []), gpu("g3", [])]),
    );
    const runs = detectRuns(samples);
    expect(runs.map((r) => [r.id, r.holder.user, r.gpus, r.start.getTime() - T0])).toEqual([
      ["job:100", "alice", 2, 0],
      ["job:200", "bob", 1, M],
    ]);
  });

  it("tells pods apart by namespace; MIG slices and shared GPUs count their share", () => {
    const ml = holder("pod", "ml/trainer-0", { namespace: "ml", name: "trainer-0", user: "1000" });
    const cv = holder("pod", "cv/trainer-0", { namespace: "cv", name: "trainer-0", user: "1000" });
    const proc = holder("process", "python", { user: "carol" });
    const samples = [0, 1].map((i) =>
      at(i, [gpu("s1", [ml], 3 / 7), gpu("s2", [ml], 1 / 7), gpu("g1", [cv, proc])]),
    );
    const runs = detectRuns(samples);
    expect(runs.map((r) => r.id)).toEqual(["pod:ml/trainer-0", "pod:cv/trainer-0"]);
    expect(runs[0]?.gpus).toBeCloseTo(4 / 7, 10);
    expect(runs[1]?.gpus).toBe(0.5);
    expect(runLabel(ml)).toBe("pod ml/trainer-0 (1000)");
    expect(runLabel(job("4242"))).toBe("job 4242 (alice)");
    // a plain process or a container is not a run
    expect([...runsInSample(samples[0] as HostSample).keys()]).not.toContain(runId(proc));
  });
});

describe("searchStart", () => {
  it("walks older minutes back to the break before the run", () => {
    const j = job("9");
    const older = [
      ...[0, 1, 2, 3, 4].map((i) => at(i, [gpu("g0", [])])),
      ...[5, 6, 7].map((i) => at(i, [gpu("g0", [j])])),
      at(8, [gpu("g0", [])]), // a one-minute absence: the same run
      at(9, [gpu("g0", [j])]),
    ];
    const start = { earliest: new Date(T0 + 10 * M), absent: 0, found: false };
    // the newest chunk first: minutes 8-9 do not reach a break
    const first = searchStart(older.slice(8), "job:9", start);
    expect(first).toMatchObject({ found: false, earliest: new Date(T0 + 9 * M), absent: 1 });
    const done = searchStart(older.slice(0, 8), "job:9", first);
    expect(done).toEqual({ earliest: new Date(T0 + 5 * M), absent: 5, found: true });
  });
});
