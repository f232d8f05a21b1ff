// Simulated source (--simulate): renders what nvidia-smi would print for each simulated host and
// reads it with the real parsers. DCGM profiling fields are copied from the samples: parsing their
// text (sim/render-dcgm.ts, tested to agree) would double a 1,000-host tick.

import { timed, type Host, type Source } from "../collect.ts";
import type { Logger } from "../log.ts";
import { Attributor } from "../holders/attribute.ts";
import { mapProcReader } from "../holders/procfs.ts";
import { UserNames, tableLookup } from "../holders/users.ts";
import type { GpuReading, ProcessReading } from "../readings.ts";
import { EndedRuns } from "../sim/ended-runs.ts";
import { SIM_USERS, fillProcTree } from "../sim/holders.ts";
import { hash } from "../sim/rand.ts";
import { ALL_GPU_FIELD_NAMES, APP_FIELDS } from "../nvidia/fields.ts";
import { parseComputeApps } from "../nvidia/parse-apps.ts";
import { compileLayout, parseQueryLine } from "../nvidia/parse-query.ts";
import { migReadings, parseListGpus, parseQueryXml } from "../nvidia/parse-xml.ts";
import { renderComputeApps, renderMigXml, renderQueryGpu } from "../sim/render.ts";
import { sampleGpu } from "../sim/sample.ts";
import { simWorkPart } from "../sim/work.ts";
import type { SimFleet, SimHostSpec, SimProfiling } from "../sim/types.ts";

export interface SimulatedOptions {
  migIntervalMs: number;
  log: Logger;
  /** give processes holders from a generated /proc tree (sim/holders.ts) */
  holders?: boolean;
}

export interface SimAttribution {
  tree: Map<string, string>;
  attributor: Attributor;
}

/** One host's attribution: the real Attributor reading the host's generated /proc tree (the
 * demo's backfill, lib/demo/holders.ts, attributes its history through it too). */
export function simAttribution(): SimAttribution {
  const tree = new Map<string, string>();
  const users = new UserNames({ lookup: tableLookup(SIM_USERS) });
  // the simulated user database is known up front: no first collection with bare uids
  for (const [uid, name] of SIM_USERS) users.cache.set(uid, name);
  return { tree, attributor: new Attributor({ proc: mapProcReader(tree), users }) };
}

/** What `nvidia-smi -L` prints for the host: the simulator's XML lacks MIG profile names. */
export function renderGpuList(host: SimHostSpec): string {
  let out = "";
  for (const gpu of host.gpus) {
    out += `GPU ${gpu.index}: ${gpu.name} (UUID: ${gpu.uuid})\n`;
    (gpu.mig ?? []).forEach((mi, i) => {
      const uuid = `MIG-${gpu.uuid.slice(4, 12)}-${mi.gpuInstanceId}-${mi.computeInstanceId}`;
      out += `  MIG ${mi.profile.padEnd(8)} Device ${String(i).padStart(2)}: (UUID: ${uuid})\n`;
    });
  }
  return out;
}

/** What the DCGM source would read from these fields (sim/render-dcgm.test.ts checks it). */
export function applySimProfiling(r: GpuReading, p: SimProfiling): void {
  r.smActiveRatio = p.smActive;
  r.smOccupancyRatio = p.smOccupancy;
  r.tensorActiveRatio = p.tensorActive;
  r.dramActiveRatio = p.dramActive;
  r.graphicsEngineActiveRatio = p.grEngineActive;
  r.pcieTxBytesPerSecond = p.pcieTxBytesPerSecond;
  r.pcieRxBytesPerSecond = p.pcieRxBytesPerSecond;
  if (p.nvlinkTxBytesPerSecond !== undefined) r.nvlinkTxBytesPerSecond = p.nvlinkTxBytesPerSecond;
  if (p.nvlinkRxBytesPerSecond !== undefined) r.nvlinkRxBytesPerSecond = p.nvlinkRxBytesPerSecond;
}

const LAYOUT = compileLayout(ALL_GPU_FIELD_NAMES);
const HOSTS_PER_SLICE = 50; // yield between slices so scrapes are served during a big tick

export class SimulatedSource implements Source {
  private lastMigAt = -Infinity;
  private ticking = false;
  private readonly attribution = new Map<number, SimAttribution>();
  /** jobs and pods the simulated cloud ended (`POST /hosts/<i>/runs/end`, exporter/http.ts) */
  readonly ended = new EndedRuns();

  constructor(
    private readonly fleet: SimFleet,
    readonly hosts: Host[],
    private readonly opts: SimulatedOptions,
  ) {}

  start(): void {}

  async tick(now: number): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const migDue = now - this.lastMigAt >= this.opts.migIntervalMs;
      if (migDue) this.lastMigAt = now;
      for (let i = 0; i < this.hosts.length; i++) {
        const host = this.hosts[i];
        const spec = this.fleet.hosts[i];
        if (host && spec) await this.collectHost(host, spec, now, migDue);
        if (i % HOSTS_PER_SLICE === HOSTS_PER_SLICE - 1) {
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      this.ticking = false;
    }
  }

  /** One host's collection: render as nvidia-smi would, then parse like real output. */
  collectHost(host: Host, spec: SimHostSpec, now: number, withMig: boolean): Promise<boolean> {
    const { log } = this.opts;
    const { state } = host;
    return timed(state, "simulated", log, async () => {
      const at = new Date(now);
      const samples = spec.gpus.map((g) => sampleGpu(this.fleet, spec, g, at));
      this.ended.apply(spec, hash(this.fleet.seed, spec.id), samples);
      const profiling = new Map<string, SimProfiling>();
      spec.gpus.forEach((g, i) => {
        const p = samples[i]?.profiling;
        if (p) profiling.set(g.uuid, p);
      });
      const text = renderQueryGpu(spec, samples, ALL_GPU_FIELD_NAMES, at);
      for (const line of text.split("\n")) {
        if (line === "") continue;
        const r = parseQueryLine(line, LAYOUT);
        if (typeof r === "string") {
          log.limited("sim:line", "warn", "skipping line", { err: r });
          continue;
        }
        const prof = profiling.get(r.uuid);
        if (prof) applySimProfiling(r, prof);
        state.setGpu(r, now);
      }
      const apps = parseComputeApps(renderComputeApps(spec, samples, APP_FIELDS, at), APP_FIELDS);
      for (const w of apps.warnings) log.limited("sim:apps", "warn", "skipping line", { err: w });
      if (this.opts.holders) await this.attribute(host, spec, apps.items);
      state.replaceProcesses(apps.items, now);
      state.processesKnown = true;
      if (withMig && spec.gpus.some((g) => g.mig)) {
        const xml = parseQueryXml(renderMigXml(spec, samples, at));
        const profiles = parseListGpus(renderGpuList(spec));
        const uuids = xml.items.map((g) => g.uuid);
        state.replaceMig(migReadings(xml.items, profiles), now, uuids);
        state.setProcessInstances(
          uuids,
          xml.items.flatMap((g) => g.processes),
        );
      }
      // the host's own work: a vLLM server's counters or a training job's textfile (sim/work.ts)
      state.setWork("simulated", simWorkPart(this.fleet, spec, now));
      state.prune(now);
    });
  }

  private async attribute(host: Host, spec: SimHostSpec, items: ProcessReading[]): Promise<void> {
    let a = this.attribution.get(host.id);
    if (!a) {
      a = simAttribution();
      this.attribution.set(host.id, a);
    }
    fillProcTree(a.tree, spec, hash(this.fleet.seed, spec.id), items);
    await a.attributor.attribute(items);
  }

  /** The /proc tree host `id` had at its last collection (tests write it out with writeProcTree). */
  procTree(id: number): ReadonlyMap<string, string> | undefined {
    return this.attribution.get(id)?.tree;
  }

  async close(): Promise<void> {}
}
