import { describe, expect, it } from "vitest";
import { SimulatedSource } from "../collectors/simulated.ts";
import { resolveConfig } from "../config.ts";
import { Attributor } from "../holders/attribute.ts";
import { fsProcReader } from "../holders/procfs.ts";
import { UserNames, tableLookup } from "../holders/users.ts";
import { silentLogger } from "../log.ts";
import type { ProcessReading } from "../readings.ts";
import { buildSource } from "../sources.ts";
import { fakeDir } from "../test/fake-host.ts";
import { SIM_USERS, simHostKind, writeProcTree } from "./holders.ts";

const AT = Date.parse("2026-11-25T15:00:00.000Z");

async function fleet(holders = true) {
  const cfg = resolveConfig({
    simulate: true,
    simulateHosts: 24,
    logger: silentLogger,
    holders: { enabled: holders },
  });
  const src = buildSource(cfg, silentLogger);
  await src.tick(AT);
  return src;
}

function procs(src: Awaited<ReturnType<typeof fleet>>, id: number): ProcessReading[] {
  const host = src.hosts[id];
  if (!host) throw new Error(`no host ${id}`);
  return host.state.view(AT).processes ?? [];
}

describe("the simulator's holders", () => {
  it("gives host 0, an 8-GPU box, three users", async () => {
    const src = await fleet();
    const list = procs(src, 0);
    expect(new Set(list.map((p) => p.gpuUuid)).size).toBe(8);
    expect(new Set(list.map((p) => p.holder?.user))).toEqual(new Set(["alice", "bob", "carol"]));
    expect(list.some((p) => p.holder?.containerId)).toBe(true);
  });

  it("has Kubernetes, Slurm and Docker hosts", async () => {
    const src = await fleet();
    const all = src.hosts.map((h) => ({ id: h.id, list: procs(src, h.id) }));
    const kinds = (kind: string) => all.filter((h) => h.list.length > 0 && simHostKind(h) === kind);
    const k8s = kinds("kubernetes").flatMap((h) => h.list);
    expect(k8s.length).toBeGreaterThan(0);
    for (const p of k8s) {
      expect(p.holder).toMatchObject({ user: "1000", containerRuntime: "containerd" });
      expect(p.holder?.podUid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
    const slurm = kinds("slurm").flatMap((h) => h.list);
    expect(slurm.length).toBeGreaterThan(0);
    for (const p of slurm) {
      expect(["dave", "erin"]).toContain(p.holder?.user);
      expect(p.holder?.slurmJobId).toMatch(/^\d+$/);
    }
    const docker = kinds("docker").flatMap((h) => h.list);
    expect(docker.length).toBeGreaterThan(0);
    for (const p of docker)
      expect(p.holder).toMatchObject({ user: "root", containerRuntime: "docker" });
  });

  it("reads the same holders back from the tree written to disk", async () => {
    const src = await fleet();
    if (!(src instanceof SimulatedSource)) throw new Error("not simulated");
    for (const id of [0, 1, 2, 3]) {
      const tree = src.procTree(id);
      if (!tree) throw new Error(`no tree for host ${id}`);
      const dir = fakeDir(`sim-proc-${id}-`);
      await writeProcTree(dir, tree);
      const users = new UserNames({ lookup: tableLookup(SIM_USERS) });
      for (const [uid, name] of SIM_USERS) users.cache.set(uid, name);
      const served = procs(src, id);
      const copy = served.map((p): ProcessReading => ({
        gpuUuid: p.gpuUuid,
        pid: p.pid,
        processName: p.processName,
      }));
      await new Attributor({ proc: fsProcReader(dir), users }).attribute(copy);
      expect(copy.map((p) => p.holder)).toEqual(served.map((p) => p.holder));
    }
  });

  it("leaves processes unattributed with --no-collect.holders", async () => {
    const src = await fleet(false);
    const list = procs(src, 0);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((p) => p.holder === undefined)).toBe(true);
  });
});
