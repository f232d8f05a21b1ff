import { sampleHost } from "../../exporter/sim/sample.ts";
import type { SimFleet, SimHostSpec } from "../../exporter/sim/types.ts";
import type { GpuSample, HostSample } from "../ledger/ledger-types.ts";
import { migFraction, migKey, migProcesses } from "../core/mig.ts";

// Turns the deterministic simulator into the samples the ledger and charts are computed from, so
// the demo's backfilled history is what the live exporter would have served at those times.

const MIB = 1024 * 1024;

export function hostSampleAt(fleet: SimFleet, host: SimHostSpec, at: Date): HostSample {
  const samples = sampleHost(fleet, host, at);
  const gpus: GpuSample[] = [];
  host.gpus.forEach((spec, i) => {
    const s = samples[i];
    if (!s || !s.reporting) return;
    gpus.push({
      uuid: spec.uuid,
      model: spec.name,
      util: s.utilizationGpu === null ? null : s.utilizationGpu / 100,
      memUsedBytes: s.memoryUsedMiB * MIB,
      memTotalBytes: spec.memoryTotalMiB * MIB,
      processes: s.processes.filter((p) => p.gpuUuid === spec.uuid).length,
    });
    for (const mig of spec.mig ?? []) {
      const used = s.migMemoryUsedMiB?.[mig.gpuInstanceId] ?? 0;
      gpus.push({
        uuid: migKey(spec.uuid, mig.gpuInstanceId),
        model: `${spec.name} MIG ${mig.profile}`,
        util: null,
        memUsedBytes: used * MIB,
        memTotalBytes: mig.memoryTotalMiB * MIB,
        processes: migProcesses(used * MIB),
        migParentUuid: spec.uuid,
        ...(migFraction(mig.profile) !== undefined
          ? { migFraction: migFraction(mig.profile) }
          : {}),
      });
    }
  });
  return { t: at, up: true, gpus };
}

/** Samples every `stepMs` over [from, to): one host's timeline. */
export function hostTimeline(
  fleet: SimFleet,
  host: SimHostSpec,
  from: number,
  to: number,
  stepMs: number,
): HostSample[] {
  const out: HostSample[] = [];
  for (let t = from; t < to; t += stepMs) out.push(hostSampleAt(fleet, host, new Date(t)));
  return out;
}
