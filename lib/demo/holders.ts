import { simAttribution, type SimAttribution } from "../../exporter/collectors/simulated.ts";
import { holderLabels, type Holder as ExporterHolder } from "../../exporter/holders/holder.ts";
import type { ProcessReading } from "../../exporter/readings.ts";
import { fillProcTree } from "../../exporter/sim/holders.ts";
import { hash } from "../../exporter/sim/rand.ts";
import type {
  SimFleet,
  SimGpuSample,
  SimGpuSpec,
  SimHostSpec,
  SimProcess,
} from "../../exporter/sim/types.ts";
import { holderFromLabels, mergeHolders, type Holder, type HolderMemory } from "../core/holders.ts";
import { migKey } from "../core/mig.ts";

// Who held the demo's GPUs in its backfilled history (issue 24): the holders the live simulator
// exporter would have labelled its processes with at those times. Each process goes through the
// exporter's own attribution (the simulator's generated /proc files, the real Attributor) and its
// labels through the app's holderFromLabels, exactly as a scrape of the live exporter does, so a
// backfilled hour and a live one name the same holders.

const MIB = 1024 * 1024;

/** One simulated host's holders, learnt in batches (attribution reads files asynchronously). */
export class DemoHolders {
  private readonly attribution: SimAttribution = simAttribution();
  private readonly hostKey: number;
  private readonly byPid = new Map<number, ExporterHolder>();
  private readonly named = new Map<string, Holder | null>();

  constructor(
    fleet: SimFleet,
    private readonly spec: SimHostSpec,
  ) {
    // the key the exporter's simulated source generates this host's /proc tree with
    this.hostKey = hash(fleet.seed, spec.id);
  }

  /** Attributes the processes not seen before. */
  async learn(processes: Iterable<SimProcess>): Promise<void> {
    const fresh = new Map<number, ProcessReading>();
    for (const p of processes) {
      if (this.byPid.has(p.pid) || fresh.has(p.pid)) continue;
      fresh.set(p.pid, { gpuUuid: p.gpuUuid, pid: p.pid, processName: p.processName });
    }
    if (fresh.size === 0) return;
    const readings = [...fresh.values()];
    fillProcTree(this.attribution.tree, this.spec, this.hostKey, readings);
    await this.attribution.attributor.attribute(readings);
    for (const r of readings) if (r.holder) this.byPid.set(r.pid, r.holder);
  }

  /** The app's holder of a learnt process (as a scrape would read its labels); null: nobody. */
  holder(p: SimProcess): Holder | null {
    const key = `${p.pid}\u0000${p.processName}`;
    if (this.named.has(key)) return this.named.get(key) ?? null;
    const h = this.byPid.get(p.pid);
    if (!h) throw new Error(`demo holders: process ${p.pid} on ${this.spec.hostname} not learnt`);
    const named = holderFromLabels({ process_name: p.processName, ...holderLabels(h) });
    this.named.set(key, named);
    return named;
  }

  /**
   * Each unit's (GPU's, or MIG slice's) holders in one sample, merged by holder. Under MIG the
   * simulator runs one process per occupied instance, in order (exporter/sim/render-xml-parts.ts
   * processNodes), which is how the exporter learns each process's GPU instance.
   */
  unitHolders(gpu: SimGpuSpec, s: SimGpuSample): Map<string, HolderMemory[]> {
    const raw = new Map<string, HolderMemory[]>();
    const occupied = (gpu.mig ?? []).filter(
      (mi) => (s.migMemoryUsedMiB?.[mi.gpuInstanceId] ?? 0) > 12,
    );
    s.processes.forEach((p, i) => {
      if (p.gpuUuid !== gpu.uuid) return;
      const holder = this.holder(p);
      if (!holder) return;
      const mi = gpu.profile === "mig" ? occupied[i] : undefined;
      if (gpu.profile === "mig" && !mi) return;
      const unit = mi ? migKey(gpu.uuid, mi.gpuInstanceId) : gpu.uuid;
      const list = raw.get(unit) ?? [];
      list.push({ holder, memBytes: p.usedMemoryMiB * MIB });
      raw.set(unit, list);
    });
    return new Map([...raw].map(([k, v]) => [k, mergeHolders(v)]));
  }
}
