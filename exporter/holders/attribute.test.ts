import { describe, expect, it } from "vitest";
import type { ProcessReading } from "../readings.ts";
import { Attributor } from "./attribute.ts";
import { mapProcReader, type ProcFile, type ProcReader } from "./procfs.ts";
import { UserNames, tableLookup } from "./users.ts";

function proc(pid: number): ProcessReading {
  return { gpuUuid: "GPU-x", pid, processName: "python3" };
}

function tree(entries: [pid: number, uid: number, cgroup: string, start: number][]) {
  const m = new Map<string, string>();
  for (const [pid, uid, cgroup, start] of entries) {
    m.set(`${pid}/status`, `Uid:\t${uid}\t${uid}\t${uid}\t${uid}\n`);
    m.set(`${pid}/cgroup`, cgroup);
    m.set(`${pid}/stat`, `${pid} (p) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 0`);
  }
  return m;
}

function counted(inner: ProcReader): { reader: ProcReader; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    reader: {
      read(pid: number, file: ProcFile) {
        reads.push(`${pid}/${file}`);
        return inner.read(pid, file);
      },
    },
  };
}

async function users(): Promise<UserNames> {
  const u = new UserNames({
    lookup: tableLookup(
      new Map([
        [1001, "alice"],
        [1002, "bob"],
      ]),
    ),
  });
  u.label(1001);
  u.label(1002);
  await u.cache.settled();
  return u;
}

describe("Attributor", () => {
  it("reads owner and cgroup once per process, then only the stat file", async () => {
    const t = tree([[10, 1001, "0::/system.slice/slurmstepd.scope/job_5/step_0\n", 100]]);
    const { reader, reads } = counted(mapProcReader(t));
    const a = new Attributor({ proc: reader, users: await users() });
    const first = [proc(10)];
    await a.attribute(first);
    expect(first[0]?.holder).toEqual({ user: "alice", slurmJobId: "5", slurmStep: "0" });
    reads.length = 0;
    await a.attribute([proc(10)]);
    expect(reads).toEqual(["10/stat"]);
  });

  it("notices a reused pid by its start time", async () => {
    const t = tree([[10, 1001, "0::/user.slice\n", 100]]);
    const a = new Attributor({ proc: mapProcReader(t), users: await users() });
    await a.attribute([proc(10)]);
    for (const [k, v] of tree([[10, 1002, "0::/user.slice\n", 200]])) t.set(k, v);
    const again = [proc(10)];
    await a.attribute(again);
    expect(again[0]?.holder?.user).toBe("bob");
  });

  it("forgets processes that are gone, and labels an unreadable one unknown", async () => {
    const t = tree([
      [10, 1001, "0::/\n", 1],
      [11, 1002, "0::/\n", 1],
    ]);
    const a = new Attributor({ proc: mapProcReader(t), users: await users() });
    await a.attribute([proc(10), proc(11)]);
    expect(a.cached).toBe(2);
    const next = [proc(11), proc(12)];
    await a.attribute(next);
    expect(a.cached).toBe(1);
    expect(next.map((p) => p.holder?.user)).toEqual(["bob", "unknown"]);
  });

  it("gives one holder to a process on several GPUs", async () => {
    const t = tree([[10, 1001, "0::/\n", 1]]);
    const a = new Attributor({ proc: mapProcReader(t), users: await users() });
    const list = [proc(10), { ...proc(10), gpuUuid: "GPU-y" }];
    await a.attribute(list);
    expect(list[0]?.holder).toBe(list[1]?.holder);
  });
});
