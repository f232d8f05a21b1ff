// DCGM's profiling fields for a simulated GPU, derived from the load its utilization comes from
// so the two agree (training: SM active 0.6-0.9 of utilization; stuck loop: ~100 % busy, SM
// active ~0). New hash channels only, so nothing nvidia-smi shows changes.
import type { GpuModel } from "./gpu-models.ts";
import type { Keys, Load } from "./load.ts";
import { clamp, unit } from "./rand.ts";
import type { SimGpuSpec, SimHostSpec, SimProfiling } from "./types.ts";

const CH = {
  eff: 31,
  tensor: 32,
  occ: 33,
  dram: 34,
  gr: 35,
  pcie: 36,
  nvlink: 37,
  idle: 38,
} as const;
/** PCIe x16 bandwidth per direction by generation, bytes per second */
const PCIE_BPS: Readonly<Record<number, number>> = { 3: 15.75e9, 4: 31.5e9, 5: 63e9 };

/** training: SM active as a fraction of utilization; stuck loop: the most SM active reads */
export const TRAINING_SM_PER_UTIL = [0.6, 0.9] as const;
export const STUCK_SM_ACTIVE_MAX = 0.012;

interface Shape {
  sm: number;
  tensor: number;
  occupancy: number;
  dram: number;
  /** host to device, device to host: bytes per second above the idle background */
  pcieRx: number;
  pcieTx: number;
  /** share of the NVLink bandwidth used, per direction */
  nvlink: number;
}

const IDLE: Shape = { sm: 0, tensor: 0, occupancy: 0, dram: 0, pcieRx: 0, pcieTx: 0, nvlink: 0 };

function trainingShape(k: Keys, u: number, pcieBps: number): Shape {
  const [lo, hi] = TRAINING_SM_PER_UTIL;
  // the job's efficiency is fixed per host; a little per-minute wobble per GPU
  const eff = clamp(
    0.62 + 0.26 * unit(k.host, CH.eff) + 0.04 * (unit(k.gpu, CH.eff, k.minute) - 0.5),
    lo,
    hi,
  );
  const sm = u * eff;
  const rx = pcieBps * u * (0.02 + 0.03 * unit(k.gpu, CH.pcie, k.minute));
  return {
    sm,
    tensor: sm * (0.55 + 0.25 * unit(k.host, CH.tensor)),
    occupancy: sm * (0.3 + 0.2 * unit(k.host, CH.occ)),
    dram: u * (0.3 + 0.2 * unit(k.host, CH.dram) + 0.02 * unit(k.gpu, CH.dram, k.minute)),
    pcieRx: rx,
    pcieTx: rx * (0.1 + 0.1 * unit(k.gpu, CH.pcie, k.minute, 1)),
    // gradient all-reduce: both directions alike
    nvlink: u * (0.12 + 0.12 * unit(k.host, CH.nvlink, k.minute)),
  };
}

function inferenceShape(k: Keys, u: number): Shape {
  const sm = u * (0.35 + 0.2 * unit(k.host, CH.eff)) * (0.9 + 0.2 * unit(k.gpu, CH.eff, k.minute));
  const rx = u * (20e6 + 60e6 * unit(k.gpu, CH.pcie, k.minute));
  return {
    sm,
    tensor: sm * (0.3 + 0.2 * unit(k.host, CH.tensor)),
    occupancy: sm * (0.25 + 0.15 * unit(k.host, CH.occ)),
    // token decoding is memory-bound
    dram: u * (0.45 + 0.2 * unit(k.host, CH.dram)),
    pcieRx: rx,
    pcieTx: rx * (0.5 + 0.5 * unit(k.gpu, CH.pcie, k.minute, 1)),
    nvlink: u * 0.02 * (0.5 + unit(k.host, CH.nvlink, k.minute)),
  };
}

function shapeOf(gpu: SimGpuSpec, k: Keys, load: Load, pcieBps: number): Shape {
  const u = load.util / 100;
  switch (gpu.profile) {
    case "training":
    case "faulty":
      return trainingShape(k, u, pcieBps);
    case "inference":
      return inferenceShape(k, u);
    case "held_idle":
      return { ...IDLE, sm: u * 0.3, occupancy: u * 0.03, dram: u * 0.05 };
    case "stuck_loop": {
      // one spinning warp: a sliver of one SM, no tensor work, nothing moving
      const sm = 0.004 + (STUCK_SM_ACTIVE_MAX - 0.004) * unit(k.gpu, CH.eff, k.minute);
      return {
        ...IDLE,
        sm,
        occupancy: sm * 0.02,
        dram: 0.0002 + 0.0006 * unit(k.gpu, CH.dram, k.minute),
      };
    }
    case "empty_idle":
    case "mig":
      return IDLE;
  }
}

const ratio = (v: number) => Math.round(clamp(v, 0, 1) * 1e6) / 1e6;

/**
 * The profiling fields DCGM would report, or undefined where it reports none: models without
 * profiling (GeForce) and GPUs in MIG mode (DCGM profiles the instances there, not the GPU).
 */
export function profilingFor(
  model: GpuModel,
  host: SimHostSpec,
  gpu: SimGpuSpec,
  k: Keys,
  load: Load,
): SimProfiling | undefined {
  if (!model.profiling || gpu.profile === "mig") return undefined;
  const s = shapeOf(gpu, k, load, PCIE_BPS[model.pcieGen] ?? 15.75e9);
  const u = load.util / 100;
  // driver and monitoring traffic never stops: ~100-180 kB/s out, ~15-35 kB/s in when idle
  const tx = 100e3 + 80e3 * unit(k.gpu, CH.idle, k.minute) + s.pcieTx;
  const rx = 15e3 + 20e3 * unit(k.gpu, CH.idle, k.minute, 1) + s.pcieRx;
  const p: SimProfiling = {
    smActive: ratio(s.sm),
    smOccupancy: ratio(s.occupancy),
    tensorActive: ratio(s.tensor),
    dramActive: ratio(s.dram),
    grEngineActive: ratio(u * (0.97 + 0.03 * unit(k.gpu, CH.gr, k.minute))),
    pcieTxBytesPerSecond: Math.round(tx),
    pcieRxBytesPerSecond: Math.round(rx),
  };
  if (model.nvlinkGBps !== null) {
    // a single SXM board has its links but no peer to talk to
    const bps = host.gpus.length > 1 ? model.nvlinkGBps * 1e9 * s.nvlink : 0;
    p.nvlinkTxBytesPerSecond = Math.round(
      bps * (0.98 + 0.04 * unit(k.gpu, CH.nvlink, k.minute, 1)),
    );
    p.nvlinkRxBytesPerSecond = Math.round(
      bps * (0.98 + 0.04 * unit(k.gpu, CH.nvlink, k.minute, 2)),
    );
  }
  return p;
}
