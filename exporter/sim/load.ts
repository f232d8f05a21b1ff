// What each workload profile does to a GPU at an instant: SM activity, memory, processes.
// Pure functions of (keys, time); noise comes from hashing the minute (or second) bucket.
import { regionOffsetHours } from "./catalogue.ts";
import { clamp, hash, unit } from "./rand.ts";
import type { SimGpuSpec, SimHostSpec, SimProcess } from "./types.ts";

export interface Load {
  /** SM activity 0-100; under MIG the driver hides it but power and heat still follow it */
  util: number;
  memUtil: number;
  memUsedMiB: number;
  processes: SimProcess[];
  migUsed?: Record<number, number>;
  /** share of the power headroom (limit - idle) drawn */
  powerFrac: number;
}

export interface Keys {
  /** hash(seed, host) */
  host: number;
  /** hash(seed, host, gpu) */
  gpu: number;
  minute: number;
  second: number;
  /** memory.total minus memory.reserved: what processes can hold */
  usableMiB: number;
  /** memory.used with nothing running (driver bookkeeping), 0-5 MiB */
  baseMiB: number;
}

const CH = { util: 1, mem: 2, epoch: 3, pid: 4, name: 5, jitter: 6, occupy: 7, pfrac: 8 } as const;
const HOUR = 60;
const DAY = 1440;

const TRAIN_NAMES = ["/usr/bin/python3", "python", "/opt/conda/bin/python3"];
const SERVE_NAMES = ["tritonserver", "/opt/tritonserver/bin/tritonserver", "python3"];
const NOTEBOOK_NAMES = ["python", "/usr/bin/python3", "/opt/conda/bin/python"];

function nameFor(names: readonly string[], hostKey: number): string {
  return names[hash(hostKey, CH.name) % names.length] ?? "python";
}

function pidFor(key: number, epoch: number): number {
  return 2000 + Math.floor(unit(key, CH.pid, epoch) * 400000);
}

/** epoch index of a job that restarts every `lengthMin` minutes, phase-shifted per key */
function epochOf(key: number, minute: number, lengthMin: number): number {
  return Math.floor((minute + (hash(key, CH.epoch) % lengthMin)) / lengthMin);
}

function proc(
  pid: number,
  processName: string,
  usedMemoryMiB: number,
  gpu: SimGpuSpec,
): SimProcess {
  return { pid, processName, usedMemoryMiB, gpuUuid: gpu.uuid };
}

export function trainingLoad(k: Keys, gpu: SimGpuSpec): Load {
  // one job per host, restarted every 1-3 days at a whole hour: all GPUs share its pids
  const jobMin = trainingJobMinutes(k.host);
  const epoch = epochOf(k.host, Math.floor(k.minute / HOUR) * HOUR, jobMin);
  const period = 45 + (hash(k.host, CH.util) % 46);
  const checkpointing = (k.minute + (hash(k.host, CH.util, 1) % period)) % period < 2;
  const jitter = unit(k.gpu, CH.jitter, k.second) * 2 - 1;
  const u = unit(k.gpu, CH.util, k.minute);
  const util = checkpointing
    ? 15 + Math.round(u * 30)
    : Math.round(clamp(100 - 9 * u * u + jitter, 90, 100));
  const memFrac = 0.82 + 0.13 * unit(k.gpu, CH.mem, epoch);
  const memWobble = 1 + 0.004 * (unit(k.gpu, CH.mem, k.minute) - 0.5);
  const procMiB = Math.min(Math.round(k.usableMiB * memFrac * memWobble), k.usableMiB - k.baseMiB);
  const pid = pidFor(k.host, epoch) + gpu.index;
  const powerFrac = (0.8 + 0.17 * unit(k.gpu, CH.pfrac, epoch)) * (checkpointing ? 0.3 : 1);
  return {
    util,
    memUtil: Math.round(util * (0.35 + 0.25 * unit(k.gpu, CH.mem, epoch, 1))),
    memUsedMiB: procMiB + k.baseMiB,
    processes: [proc(pid, nameFor(TRAIN_NAMES, k.host), procMiB, gpu)],
    powerFrac,
  };
}

/**
 * A hung job busy-waiting (a collective that never completes, a spin on a flag): a kernel is
 * always resident, so utilization reads ~100 %, but one warp spins and the SMs sit empty. The
 * job's memory and process stay as training left them; power stays near idle.
 */
export function stuckLoopLoad(k: Keys, gpu: SimGpuSpec): Load {
  const job = trainingLoad(k, gpu);
  const u = unit(k.gpu, CH.util, k.minute, 7);
  return { ...job, util: u < 0.7 ? 100 : 99, memUtil: u < 0.5 ? 0 : 1, powerFrac: 0.1 + 0.05 * u };
}

/** demand 0-1 by local hour: quiet at night, busy 9-19, tapering in the evening */
export function diurnal(localHour: number): number {
  if (localHour < 6) return 0.1;
  if (localHour < 9) return 0.1 + ((localHour - 6) / 3) * 0.7;
  if (localHour < 19) return 0.8 + 0.12 * Math.sin(((localHour - 9) / 10) * Math.PI);
  return 0.8 - ((localHour - 19) / 5) * 0.7;
}

/** local wall-clock facts of the host's region at a given UTC minute */
export function localTime(host: SimHostSpec, minute: number): { hour: number; weekend: boolean } {
  const local = minute + regionOffsetHours(host.region) * HOUR;
  const day = Math.floor(local / DAY);
  const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  return { hour: (local - day * DAY) / HOUR, weekend: dow === 0 || dow === 6 };
}

export function demand(host: SimHostSpec, k: Keys): number {
  return demandAt(host, k.minute);
}

/** serving demand 0-1 at a UTC minute: the diurnal curve, damped at weekends */
export function demandAt(host: SimHostSpec, minute: number): number {
  const { hour, weekend } = localTime(host, minute);
  const d = diurnal(hour);
  return weekend ? 0.1 + (d - 0.1) * 0.45 : d;
}

/** how hard a host's serving GPUs work at a demand (inferenceLoad's utilization, 0-1) */
export function servingShare(hostKey: number, busy: number): number {
  const amp = 0.7 + 0.25 * unit(hostKey, CH.util, 2);
  return clamp((4 + 100 * amp * busy) / 100, 0, 1);
}

/** the epoch (restart count) of a job restarting every `lengthMin`, at a whole hour */
export function jobEpoch(key: number, hourMinute: number, lengthMin: number): number {
  return epochOf(key, hourMinute, lengthMin);
}

/** a training host's job length in minutes (trainingLoad restarts it this often) */
export function trainingJobMinutes(hostKey: number): number {
  return (24 + (hash(hostKey, CH.epoch, 1) % 3) * 24) * HOUR;
}

export function inferenceLoad(host: SimHostSpec, k: Keys, gpu: SimGpuSpec): Load {
  const busy = demand(host, k);
  const amp = 0.7 + 0.25 * unit(k.host, CH.util, 2);
  const noise = (unit(k.gpu, CH.util, k.minute) - 0.5) * 12;
  const jitter = (unit(k.gpu, CH.jitter, k.second) - 0.5) * 3;
  // a serving fleet never quite sleeps: health checks and night traffic keep a few % busy
  const util = Math.round(clamp(4 + 100 * amp * busy + noise + jitter, 0, 100));
  const deploy = epochOf(k.host, Math.floor(k.minute / HOUR) * HOUR, DAY);
  const weights = k.usableMiB * (0.35 + 0.25 * unit(k.host, CH.mem, deploy));
  const kvCache = k.usableMiB * 0.3 * busy * (0.9 + 0.2 * unit(k.gpu, CH.mem, k.minute));
  const procMiB = Math.min(Math.round(weights + kvCache), k.usableMiB - k.baseMiB);
  return {
    util,
    memUtil: Math.round(util * 0.45),
    memUsedMiB: procMiB + k.baseMiB,
    processes: [proc(pidFor(k.host, deploy), nameFor(SERVE_NAMES, k.host), procMiB, gpu)],
    powerFrac: (util / 100) * 0.75,
  };
}

export function heldIdleLoad(k: Keys, gpu: SimGpuSpec): Load {
  const r = unit(k.gpu, CH.util, k.minute);
  const session = epochOf(k.gpu, Math.floor(k.minute / HOUR) * HOUR, DAY);
  const procMiB = Math.round(k.usableMiB * (0.7 + 0.2 * unit(k.gpu, CH.mem, session)));
  return {
    util: r < 0.85 ? 0 : r < 0.95 ? 1 : 2,
    memUtil: 0,
    memUsedMiB: procMiB + k.baseMiB,
    processes: [proc(pidFor(k.gpu, session), nameFor(NOTEBOOK_NAMES, k.gpu), procMiB, gpu)],
    powerFrac: 0.06,
  };
}

export function emptyIdleLoad(k: Keys): Load {
  return { util: 0, memUtil: 0, memUsedMiB: k.baseMiB, processes: [], powerFrac: 0 };
}

/** Slices serve inference; about a quarter of them sit unused (12 MiB, no process). */
export function migLoad(host: SimHostSpec, k: Keys, gpu: SimGpuSpec): Load {
  const busy = demand(host, k);
  const deploy = epochOf(k.host, Math.floor(k.minute / HOUR) * HOUR, DAY);
  const migUsed: Record<number, number> = {};
  const processes: SimProcess[] = [];
  let used = 2;
  let occupied = 0;
  const instances = gpu.mig ?? [];
  for (const mi of instances) {
    let miUsed = 12;
    if (unit(k.gpu, CH.occupy, mi.gpuInstanceId) < 0.75) {
      occupied++;
      const frac =
        (0.35 + 0.4 * unit(k.gpu, CH.mem, deploy, mi.gpuInstanceId)) * (0.85 + 0.15 * busy);
      const procMiB = Math.round((mi.memoryTotalMiB - 12) * frac);
      miUsed += procMiB;
      const pid = pidFor(k.gpu, deploy + mi.gpuInstanceId * 7919);
      processes.push(proc(pid, nameFor(SERVE_NAMES, k.host), procMiB, gpu));
    }
    migUsed[mi.gpuInstanceId] = miUsed;
    used += miUsed;
  }
  const share = instances.length > 0 ? occupied / instances.length : 0;
  const util = Math.round(clamp(100 * busy * 0.85 * share, 0, 100));
  return {
    util,
    memUtil: Math.round(util * 0.4),
    memUsedMiB: Math.min(used, k.usableMiB),
    processes,
    migUsed,
    powerFrac: (util / 100) * 0.7,
  };
}
