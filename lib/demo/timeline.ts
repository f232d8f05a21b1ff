import { sampleHost } from "../../exporter/sim/sample.ts";
import type { SimFleet, SimGpuSample, SimHostSpec } from "../../exporter/sim/types.ts";
import type { GpuSample, HostSample } from "../ledger/ledger-types.ts";
import { migFraction, migKey, migProcesses } from "../core/mig.ts";
import type { DemoHolders } from "./holders.ts";

// Turns the deterministic simulator into the samples the ledger and charts are computed from, so
// the demo's backfilled history is what the live exporter would have served at those times, with
// who held each GPU (./holders.ts) where the holders are given.

const MIB = 1024 * 1024;

export function hostSampleAt(
  fleet: SimFleet,
  host: SimHostSpec,
  at: Date,
  holders?: DemoHolders,
): HostSample {
  return toHostSample(host, at, sampleHost(fleet, host, at), holders);
}

/** One instant's simulator readings as a ledger sample; `holders` must know its processes. */
export function toHostSample(
  host: SimHostSpec,
  at: Date,
  samples: readonly SimGpuSample[],
  holders?: DemoHolders,
): HostSample {
  const gpus: GpuSample[] = [];
  host.gpus.forEach((spec, i) => {
    const s = samples[i];
    if (!s || !s.reporting) return;
    const held = holders?.unitHolders(spec, s);
    const heldBy = (unit: string) => (held ? { holders: held.get(unit) ?? [] } : {});
    gpus.push({
      uuid: spec.uuid,
      model: spec.name,
      util: s.utilizationGpu === null ? null : s.utilizationGpu / 100,
      memUsedBytes: s.memoryUsedMiB * MIB,
      memTotalBytes: spec.memoryTotalMiB * MIB,
      processes: s.processes.filter((p) => p.gpuUuid === spec.uuid).length,
      ...heldBy(spec.uuid),
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
        ...heldBy(migKey(spec.uuid, mig.gpuInstanceId)),
      });
    }
  });
  return { t: at, up: true, gpus };
}

/** Samples every `stepMs` over [from, to): one host's timeline, with its holders where given. */
export async function hostTimeline(
  fleet: SimFleet,
  host: SimHostSpec,
  from: number,
  to: number,
  stepMs: number,
  holders?: DemoHolders,
): Promise<HostSample[]> {
  const raw: { at: Date; samples: SimGpuSample[] }[] = [];
  for (let t = from; t < to; t += stepMs) {
    const at = new Date(t);
    raw.push({ at, samples: sampleHost(fleet, host, at) });
  }
  await holders?.learn(raw.flatMap((r) => r.samples.flatMap((s) => s.processes)));
  return raw.map((r) => toHostSample(host, r.at, r.samples, holders));
}
