// The simulated cloud's end of a job's or pod's run (the app's maximum-run-time policy per job or
// pod, through `POST /hosts/<i>/runs/end`): the simulator remembers the ended Slurm job id or pod
// uid per host, and from then on drops that run's processes from the host's samples, so nvidia-smi
// no longer lists them, the exporter attributes nothing to them, and a GPU they alone held falls
// idle (no processes, 0 % busy, its memory freed, idle power). A simulated job restarting with a
// new epoch gets a new id and runs again. At most MAX_ENDED runs are remembered per host.

import { z } from "zod";
import { parseCgroupFile } from "../holders/cgroup.ts";
import { gpuModel } from "./gpu-models.ts";
import { simHostKind, simProcFiles } from "./holders.ts";
import type { SimGpuSample, SimGpuSpec, SimHostSpec } from "./types.ts";

export interface EndedRun {
  kind: "job" | "pod";
  /** the Slurm job id, or the pod's uid */
  ref: string;
}

const MAX_ENDED = 256;

const endedRunSchema = z.strictObject({
  kind: z.enum(["job", "pod"], { error: 'kind is "job" or "pod"' }),
  ref: z
    .string({ error: "ref is the job id or the pod uid" })
    .min(1, { error: "ref is the job id or the pod uid" })
    .max(253, { error: "ref is the job id or the pod uid" }),
});

/** Reads `{"kind":"job"|"pod","ref":"..."}`; a string naming the problem otherwise. */
export function parseEndedRun(body: string): EndedRun | string {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return 'the body is JSON {"kind":"job"|"pod","ref":"<job id or pod uid>"}';
  }
  const r = endedRunSchema.safeParse(v);
  return r.success ? r.data : (r.error.issues[0]?.message ?? "not a run");
}

export class EndedRuns {
  private readonly byHost = new Map<number, Map<string, EndedRun>>();

  end(hostId: number, run: EndedRun): void {
    const m = this.byHost.get(hostId) ?? new Map<string, EndedRun>();
    m.set(`${run.kind}:${run.ref}`, run);
    while (m.size > MAX_ENDED) m.delete(m.keys().next().value as string);
    this.byHost.set(hostId, m);
  }

  /** Drops the ended runs' processes from one host's samples (in place). */
  apply(spec: SimHostSpec, hostKey: number, samples: SimGpuSample[]): void {
    const ended = this.byHost.get(spec.id);
    if (!ended || ended.size === 0) return;
    const kind = simHostKind(spec);
    const isEnded = (pid: number, name: string) => {
      const info = parseCgroupFile(simProcFiles(kind, hostKey, pid, name).cgroup);
      return (
        (info.slurmJobId !== undefined && ended.has(`job:${info.slurmJobId}`)) ||
        (info.podUid !== undefined && ended.has(`pod:${info.podUid}`))
      );
    };
    samples.forEach((s, i) => {
      const gpu = spec.gpus[i];
      if (!gpu) return;
      const gone = s.processes.filter((p) => isEnded(p.pid, p.processName));
      if (gone.length > 0) endOn(gpu, s, gone.length === s.processes.length, gone);
    });
  }
}

function endOn(gpu: SimGpuSpec, s: SimGpuSample, all: boolean, gone: SimGpuSample["processes"]) {
  const freed = gone.reduce((sum, p) => sum + p.usedMemoryMiB, 0);
  s.processes = s.processes.filter((p) => !gone.includes(p));
  s.memoryUsedMiB = Math.max(0, s.memoryUsedMiB - freed);
  if (!all) return;
  if (s.utilizationGpu !== null) s.utilizationGpu = 0;
  if (s.utilizationMemory !== null) s.utilizationMemory = 0;
  const model = gpuModel(gpu.name);
  s.powerDrawW = model.power.idleW;
  s.smClockMHz = model.clocks.smIdle;
  delete s.profiling;
}
