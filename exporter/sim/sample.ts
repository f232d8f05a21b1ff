// sampleGpu: one GPU's nvidia-smi-visible state at any instant, computed in closed form
// from (seed, host, gpu, time) so the app can backfill history without stepping.
import { gpuModel, type GpuModel } from "./gpu-models.ts";
import {
  emptyIdleLoad,
  heldIdleLoad,
  inferenceLoad,
  migLoad,
  stuckLoopLoad,
  trainingLoad,
  type Keys,
  type Load,
} from "./load.ts";
import { profilingFor } from "./profiling.ts";
import { clamp, hash, unit } from "./rand.ts";
import type { SimFleet, SimGpuSample, SimGpuSpec, SimHostSpec } from "./types.ts";

const CH = { base: 11, ambient: 12, temp: 13, power: 14, window: 15, ecc: 16, clock: 17 } as const;
const DAY = 1440;
/** faulty GPUs start accruing ECC errors from here (plus up to two weeks, per GPU) */
const ECC_ONSET_MINUTE = Date.UTC(2026, 5, 1) / 60000;

export function sampleGpu(
  fleet: SimFleet,
  host: SimHostSpec,
  gpu: SimGpuSpec,
  at: Date,
): SimGpuSample {
  const model = gpuModel(gpu.name);
  const ms = at.getTime();
  const gpuKey = hash(fleet.seed, host.id, gpu.index);
  const keys: Keys = {
    host: hash(fleet.seed, host.id),
    gpu: gpuKey,
    minute: Math.floor(ms / 60000),
    second: Math.floor(ms / 1000),
    usableMiB: gpu.memoryTotalMiB - model.memory.reservedMiB,
    baseMiB: hash(gpuKey, CH.base) % 6,
  };
  const load = loadFor(host, gpu, keys);
  const sample = physics(model, gpu, keys, load);
  const profiling = profilingFor(model, host, gpu, keys, load);
  if (profiling) sample.profiling = profiling;
  if (gpu.profile === "faulty") {
    sample.reporting = reportingAt(gpuKey, keys.minute);
    const ecc = eccAt(gpuKey, keys.minute);
    sample.eccCorrected = ecc.corrected;
    sample.eccUncorrected = ecc.uncorrected;
  }
  return sample;
}

/** every GPU of a host at one instant, in host.gpus order (what the renderers take) */
export function sampleHost(fleet: SimFleet, host: SimHostSpec, at: Date): SimGpuSample[] {
  return host.gpus.map((gpu) => sampleGpu(fleet, host, gpu, at));
}

function loadFor(host: SimHostSpec, gpu: SimGpuSpec, k: Keys): Load {
  switch (gpu.profile) {
    case "training":
    case "faulty":
      return trainingLoad(k, gpu);
    case "inference":
      return inferenceLoad(host, k, gpu);
    case "held_idle":
      return heldIdleLoad(k, gpu);
    case "empty_idle":
      return emptyIdleLoad(k);
    case "mig":
      return migLoad(host, k, gpu);
    case "stuck_loop":
      return stuckLoopLoad(k, gpu);
  }
}

function physics(model: GpuModel, gpu: SimGpuSpec, k: Keys, load: Load): SimGpuSample {
  const busy = load.util > 3;
  const pstate = busy || load.processes.length > 0 ? 0 : model.idlePstate;
  const limit = gpu.powerLimitW;
  const idleW = model.power.idleW * (0.94 + 0.12 * unit(k.gpu, CH.power));
  const jitter = 1 + 0.02 * (unit(k.gpu, CH.power, k.second) - 0.5);
  const drawn = (idleW + (limit * 0.99 - idleW) * load.powerFrac) * jitter;
  const powerDrawW = Math.round(clamp(drawn, idleW * 0.9, limit) * 100) / 100;
  const ambient = 24 + 8 * unit(k.gpu, CH.ambient);
  const heat = model.tempRiseC * Math.pow(clamp((drawn - idleW) / (limit - idleW), 0, 1), 0.9);
  const temperatureC = Math.round(ambient + heat + (unit(k.gpu, CH.temp, k.minute) - 0.5) * 2);
  let smClockMHz = model.clocks.smIdle;
  if (busy) {
    // power-capped boards shed a few 15 MHz bins
    const capped = powerDrawW >= limit * 0.95;
    smClockMHz =
      model.clocks.smMax - (capped ? 15 * (1 + (hash(k.gpu, CH.clock, k.minute) % 6)) : 0);
  }
  const mig = gpu.profile === "mig";
  const sample: SimGpuSample = {
    reporting: true,
    utilizationGpu: mig ? null : load.util,
    utilizationMemory: mig ? null : load.memUtil,
    memoryUsedMiB: load.memUsedMiB,
    temperatureC,
    powerDrawW,
    smClockMHz,
    memClockMHz: pstate === 8 ? model.clocks.memIdle : model.clocks.memMax,
    fanSpeedPct: model.fanPct,
    pstate,
    eccCorrected: 0,
    eccUncorrected: 0,
    processes: load.processes,
  };
  if (load.migUsed) sample.migMemoryUsedMiB = load.migUsed;
  return sample;
}

/** A faulty GPU drops off the bus for 2-4 windows of 10-30 minutes each UTC day. */
export function reportingAt(gpuKey: number, minute: number): boolean {
  const day = Math.floor(minute / DAY);
  const inDay = minute - day * DAY;
  const windows = 2 + (hash(gpuKey, CH.window, day) % 3);
  for (let i = 0; i < windows; i++) {
    const start = Math.floor(unit(gpuKey, CH.window, day, i + 1) * (DAY - 30));
    const length = 10 + (hash(gpuKey, CH.window, day, i + 101) % 21);
    if (inDay >= start && inDay < start + length) return false;
  }
  return true;
}

/** Monotonic ECC counters: a corrected error every 4-8 h, an uncorrected one every 5-10 days. */
export function eccAt(gpuKey: number, minute: number): { corrected: number; uncorrected: number } {
  const since = minute - (ECC_ONSET_MINUTE + (hash(gpuKey, CH.ecc) % (14 * DAY)));
  if (since <= 0) return { corrected: 0, uncorrected: 0 };
  const correctedEvery = 240 + (hash(gpuKey, CH.ecc, 1) % 240);
  const uncorrectedEvery = 5 * DAY + (hash(gpuKey, CH.ecc, 2) % (5 * DAY));
  return {
    corrected: Math.floor(since / correctedEvery),
    uncorrected: Math.floor(since / uncorrectedEvery),
  };
}
