// The last collected state of one host. Sources write into it as data arrives; a scrape only
// reads it. Every entry carries the time it was seen, so that a source that stops answering
// makes its series disappear (after --collect.stale-after) instead of freezing old numbers.

import type { GpuDetails, GpuReading, MigReading, ProcessReading } from "./readings.ts";
import type { WorkPart } from "./work/series.ts";

export interface StateOptions {
  staleAfterMs: number;
  /** streamed process lines only say "still running"; an entry expires after this */
  processTtlMs: number;
  migTtlMs: number;
}

interface Timed<T> {
  value: T;
  at: number;
}

export interface CollectorStatus {
  success: boolean;
  durationSeconds?: number;
}

/** A spot host's interruption notice, as last polled (absent on other hosts). */
export interface InterruptionState {
  pending: boolean;
  /** unix seconds of the announced action; 0 when none is pending */
  timeSeconds: number;
}

export interface StateView {
  gpus: GpuReading[];
  /** per GPU uuid, from the -q -x snapshot (virtualization mode, vGPU licence) */
  details: Map<string, GpuDetails>;
  interruption?: InterruptionState;
  /** undefined when no source currently knows the processes (series left out, not 0) */
  processes?: ProcessReading[];
  mig: MigReading[];
  collectors: Map<string, CollectorStatus>;
  /** work counters (exporter/work/), one part per collector that read some */
  work: WorkPart[];
}

export class HostState {
  private readonly gpus = new Map<string, Timed<GpuReading>>();
  private readonly procs = new Map<string, Timed<ProcessReading>>();
  private readonly mig = new Map<string, Timed<MigReading[]>>();
  private readonly details = new Map<string, Timed<GpuDetails>>();
  /** "<gpu uuid>/<pid>" → MIG GPU instance, from the last -q -x snapshot of that GPU */
  private readonly procInstances = new Map<string, number>();
  readonly collectors = new Map<string, CollectorStatus>();
  /** work counters by collector slot: each tick replaces its collector's part */
  private readonly work = new Map<string, WorkPart>();
  processesKnown = false;
  interruption?: InterruptionState;

  constructor(readonly opts: StateOptions) {}

  setGpu(reading: GpuReading, at: number): void {
    this.gpus.set(reading.uuid, { value: reading, at });
  }

  upsertProcess(p: ProcessReading, at: number): void {
    this.procs.set(`${p.gpuUuid}/${p.pid}`, { value: p, at });
  }

  /** A full snapshot of processes (simulator, DCGM): replaces whatever was known. */
  replaceProcesses(list: ProcessReading[], at: number): void {
    this.procs.clear();
    for (const p of list) this.upsertProcess(p, at);
  }

  /** A full snapshot of MIG instances for the GPUs it covers. */
  replaceMig(list: MigReading[], at: number, gpuUuids: Iterable<string>): void {
    for (const uuid of gpuUuids) this.mig.set(uuid, { value: [], at });
    for (const m of list) {
      const entry = this.mig.get(m.gpuUuid) ?? { value: [], at };
      entry.value.push(m);
      this.mig.set(m.gpuUuid, entry);
    }
  }

  /** Which MIG instance each process runs in, for the GPUs a -q -x snapshot covered. */
  setProcessInstances(gpuUuids: Iterable<string>, procs: ProcessReading[]): void {
    const covered = new Set(gpuUuids);
    for (const k of this.procInstances.keys()) {
      if (covered.has(k.slice(0, k.lastIndexOf("/")))) this.procInstances.delete(k);
    }
    for (const p of procs) {
      if (p.gpuInstanceId !== undefined && covered.has(p.gpuUuid)) {
        this.procInstances.set(`${p.gpuUuid}/${p.pid}`, p.gpuInstanceId);
      }
    }
  }

  setGpuDetails(uuid: string, details: GpuDetails, at: number): void {
    this.details.set(uuid, { value: details, at });
  }

  setWork(slot: string, part: WorkPart): void {
    this.work.set(slot, part);
  }

  setCollector(name: string, success: boolean, durationSeconds?: number): void {
    const prev = this.collectors.get(name);
    this.collectors.set(name, {
      success,
      durationSeconds: durationSeconds ?? prev?.durationSeconds,
    });
  }

  /** Forget what is too old to be served; keeps memory flat while a source is down. */
  prune(now: number): void {
    const { staleAfterMs, processTtlMs, migTtlMs } = this.opts;
    for (const [k, v] of this.gpus) if (now - v.at > staleAfterMs) this.gpus.delete(k);
    for (const [k, v] of this.procs) if (now - v.at > processTtlMs) this.procs.delete(k);
    for (const [k, v] of this.mig) if (now - v.at > migTtlMs) this.mig.delete(k);
    for (const k of this.details.keys()) if (!this.gpus.has(k)) this.details.delete(k);
  }

  view(now: number): StateView {
    const { staleAfterMs, processTtlMs, migTtlMs } = this.opts;
    const fresh = new Map<string, GpuReading>();
    const gpus: GpuReading[] = [];
    for (const [uuid, g] of this.gpus) {
      if (now - g.at > staleAfterMs) continue;
      fresh.set(uuid, g.value);
      gpus.push(g.value);
    }
    gpus.sort((a, b) => a.index - b.index || a.uuid.localeCompare(b.uuid));
    let processes: ProcessReading[] | undefined;
    if (this.processesKnown) {
      processes = [];
      for (const p of this.procs.values()) {
        if (now - p.at > processTtlMs || !fresh.has(p.value.gpuUuid)) continue;
        const gi = this.procInstances.get(`${p.value.gpuUuid}/${p.value.pid}`);
        processes.push(gi === undefined ? p.value : { ...p.value, gpuInstanceId: gi });
      }
    }
    const mig: MigReading[] = [];
    for (const [uuid, m] of this.mig) {
      // A GPU taken out of MIG mode loses its instances at once, not after the TTL.
      const gpu = fresh.get(uuid);
      if (now - m.at <= migTtlMs && gpu && gpu.migEnabled !== false) mig.push(...m.value);
    }
    const details = new Map<string, GpuDetails>();
    for (const [uuid, d] of this.details) {
      if (!fresh.has(uuid)) continue;
      // the mode is fixed while the driver runs; a licence state is only as good as its snapshot
      if (now - d.at <= migTtlMs) details.set(uuid, d.value);
      else if (d.value.virtualizationMode) {
        details.set(uuid, { virtualizationMode: d.value.virtualizationMode });
      }
    }
    return {
      gpus,
      processes,
      mig,
      details,
      interruption: this.interruption,
      collectors: this.collectors,
      work: [...this.work.values()],
    };
  }
}
