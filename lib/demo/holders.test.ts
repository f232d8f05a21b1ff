import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../exporter/config.ts";
import { holderLabels } from "../../exporter/holders/holder.ts";
import { silentLogger } from "../../exporter/log.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { simHostKind } from "../../exporter/sim/holders.ts";
import { buildSource } from "../../exporter/sources.ts";
import { holderFromLabels, holderKey, mergeHolders, type HolderMemory } from "../core/holders.ts";
import { migKey } from "../core/mig.ts";
import { DemoHolders } from "./holders.ts";
import { DEMO_SEED } from "./seed.ts";
import { hostSampleAt, hostTimeline } from "./timeline.ts";

// The demo's backfilled holders are the ones the live simulator exporter serves: at one instant,
// every GPU and MIG slice of every host kind names the same holders with the same memory.

const AT = Date.parse("2026-11-25T15:00:00.000Z");
const HOSTS = 24;

type Units = Map<string, string[]>;

function keys(byUnit: Map<string, HolderMemory[]>): Units {
  return new Map(
    [...byUnit]
      .filter(([, hs]) => hs.length > 0)
      .map(([u, hs]) => [u, hs.map((h) => `${holderKey(h.holder)}=${h.memBytes}`).sort()]),
  );
}

async function served(): Promise<Map<number, Units>> {
  const cfg = resolveConfig({
    simulate: true,
    simulateHosts: HOSTS,
    simulateSeed: DEMO_SEED,
    logger: silentLogger,
  });
  const src = buildSource(cfg, silentLogger);
  await src.tick(AT);
  const out = new Map<number, Units>();
  for (const host of src.hosts) {
    const raw = new Map<string, HolderMemory[]>();
    for (const p of host.state.view(AT).processes ?? []) {
      const holder = holderFromLabels({ process_name: p.processName, ...holderLabels(p.holder) });
      if (!holder) continue;
      const unit = p.gpuInstanceId === undefined ? p.gpuUuid : migKey(p.gpuUuid, p.gpuInstanceId);
      const list = raw.get(unit) ?? [];
      list.push({ holder, memBytes: p.usedMemoryBytes ?? 0 });
      raw.set(unit, list);
    }
    out.set(host.id, keys(new Map([...raw].map(([k, v]) => [k, mergeHolders(v)]))));
  }
  await src.close();
  return out;
}

describe("the demo's holders", () => {
  it("are the live simulator exporter's, GPU by GPU and slice by slice, on every host kind", async () => {
    const fleet = buildFleet({ seed: DEMO_SEED, hosts: HOSTS });
    const live = await served();
    const kinds = new Set<string>();
    let units = 0;
    let slices = 0;
    for (const h of fleet.hosts) {
      const holders = new DemoHolders(fleet, h);
      const [sample] = await hostTimeline(fleet, h, AT, AT + 1, 60_000, holders);
      if (!sample) throw new Error("no sample");
      const demo = keys(new Map(sample.gpus.map((g) => [g.uuid, g.holders ?? []])));
      expect(demo, h.hostname).toEqual(live.get(h.id));
      units += demo.size;
      slices += [...demo.keys()].filter((u) => u.includes(":gi")).length;
      if (demo.size > 0) kinds.add(simHostKind(h));
    }
    expect(units).toBeGreaterThan(50);
    expect(slices).toBeGreaterThan(0);
    expect(kinds).toEqual(new Set(["shared", "kubernetes", "slurm", "docker"]));
  });

  it("name users, pods, Slurm jobs and containers, and refuse a process never learnt", async () => {
    const fleet = buildFleet({ seed: DEMO_SEED, hosts: HOSTS });
    const seen = new Map<string, Set<string>>();
    for (const h of fleet.hosts.slice(0, 4)) {
      const holders = new DemoHolders(fleet, h);
      const [s] = await hostTimeline(fleet, h, AT, AT + 1, 60_000, holders);
      for (const g of s?.gpus ?? [])
        for (const { holder } of g.holders ?? []) {
          const set = seen.get(holder.kind) ?? new Set<string>();
          set.add(holder.user ?? "");
          seen.set(holder.kind, set);
        }
      if (!s?.gpus.some((g) => g.processes > 0)) continue;
      // a sample whose processes were not learnt is a programming error, not "nobody"
      const other = new DemoHolders(fleet, h);
      expect(() => hostSampleAt(fleet, h, new Date(AT), other)).toThrow(/not learnt/);
    }
    expect([...(seen.get("pod") ?? [])]).toEqual(["1000"]);
    expect([...(seen.get("job") ?? [])].every((u) => u === "dave" || u === "erin")).toBe(true);
    expect(seen.get("container")?.has("root")).toBe(true);
    const people = new Set([...(seen.get("process") ?? []), ...(seen.get("container") ?? [])]);
    expect([...people].filter((u) => ["alice", "bob", "carol"].includes(u)).length).toBe(3);
  });
});
