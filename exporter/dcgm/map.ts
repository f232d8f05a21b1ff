// Pure mapping from dcgm-exporter samples to the exporter's readings. dcgm-exporter labels
// changed case over releases (Hostname/UUID → hostname/uuid... modelName stayed), so both
// spellings are read. MIG series carry GPU_I_ID and GPU_I_PROFILE.

import {
  CLOCK_EVENT_REASONS,
  reasonBit,
  type GpuReading,
  type MigReading,
  type ProfilingKey,
} from "../readings.ts";
import type { Sample } from "./parse-text.ts";

const MIB = 1024 ** 2;

type Setter = (r: GpuReading, v: number) => void;

const GPU_METRICS: Record<string, Setter> = {
  DCGM_FI_DEV_GPU_UTIL: (r, v) => (r.utilizationRatio = v / 100),
  DCGM_FI_DEV_MEM_COPY_UTIL: (r, v) => (r.memoryUtilizationRatio = v / 100),
  DCGM_FI_DEV_FB_USED: (r, v) => (r.memoryUsedBytes = v * MIB),
  DCGM_FI_DEV_FB_FREE: (r, v) => (r.memoryFreeBytes = v * MIB),
  DCGM_FI_DEV_FB_TOTAL: (r, v) => (r.memoryTotalBytes = v * MIB),
  DCGM_FI_DEV_GPU_TEMP: (r, v) => (r.temperatureCelsius = v),
  DCGM_FI_DEV_POWER_USAGE: (r, v) => (r.powerDrawWatts = v),
  DCGM_FI_DEV_POWER_MGMT_LIMIT: (r, v) => (r.powerLimitWatts ??= v),
  DCGM_FI_DEV_ENFORCED_POWER_LIMIT: (r, v) => (r.powerLimitWatts = v),
  DCGM_FI_DEV_SM_CLOCK: (r, v) => (r.smClockHertz = v * 1e6),
  DCGM_FI_DEV_MEM_CLOCK: (r, v) => (r.memoryClockHertz = v * 1e6),
  DCGM_FI_DEV_FAN_SPEED: (r, v) => (r.fanSpeedRatio = v / 100),
  // DCGM reports 32 for an unknown P-state.
  DCGM_FI_DEV_PSTATE: (r, v) => (v >= 0 && v <= 15 ? (r.performanceState = v) : undefined),
  DCGM_FI_DEV_ECC_SBE_VOL_TOTAL: (r, v) => (r.eccCorrectedTotal = v),
  DCGM_FI_DEV_ECC_DBE_VOL_TOTAL: (r, v) => (r.eccUncorrectedTotal = v),
  DCGM_FI_DEV_CLOCK_THROTTLE_REASONS: (r, v) => setReasons(r, v),
  DCGM_FI_DEV_CLOCKS_EVENT_REASONS: (r, v) => setReasons(r, v),
};

/**
 * Profiling (DCP) fields. Ratios are 0-1 as DCGM gives them; the *_BYTES fields are rates in
 * bytes per second over DCGM's sampling interval (dcgm-exporter's dcp-metrics-included.csv).
 */
export const PROFILING_FIELDS: Readonly<
  Record<string, [key: ProfilingKey, kind: "ratio" | "rate"]>
> = {
  DCGM_FI_PROF_SM_ACTIVE: ["smActiveRatio", "ratio"],
  DCGM_FI_PROF_SM_OCCUPANCY: ["smOccupancyRatio", "ratio"],
  DCGM_FI_PROF_PIPE_TENSOR_ACTIVE: ["tensorActiveRatio", "ratio"],
  DCGM_FI_PROF_DRAM_ACTIVE: ["dramActiveRatio", "ratio"],
  DCGM_FI_PROF_GR_ENGINE_ACTIVE: ["graphicsEngineActiveRatio", "ratio"],
  DCGM_FI_PROF_PCIE_TX_BYTES: ["pcieTxBytesPerSecond", "rate"],
  DCGM_FI_PROF_PCIE_RX_BYTES: ["pcieRxBytesPerSecond", "rate"],
  DCGM_FI_PROF_NVLINK_TX_BYTES: ["nvlinkTxBytesPerSecond", "rate"],
  DCGM_FI_PROF_NVLINK_RX_BYTES: ["nvlinkRxBytesPerSecond", "rate"],
};

/** DCGM's blank sentinels (DCGM_FP64_BLANK is 2^47, the int64 ones ~9.2e18) sit above this. */
const BLANK_AT = 2 ** 47;

/** Under MIG these describe the instance, not the GPU. */
const PER_INSTANCE = new Set([
  "DCGM_FI_DEV_FB_USED",
  "DCGM_FI_DEV_FB_FREE",
  "DCGM_FI_DEV_FB_TOTAL",
  "DCGM_FI_DEV_GPU_UTIL",
  "DCGM_FI_DEV_MEM_COPY_UTIL",
  ...Object.keys(PROFILING_FIELDS),
]);

/** The reason a profiling value cannot be used, or undefined when it can. */
function badProfilingValue(kind: "ratio" | "rate", v: number): string | undefined {
  if (v >= BLANK_AT) return "DCGM's blank value";
  if (v < 0) return "negative";
  if (kind === "ratio" && v > 1) return "a ratio above 1";
  return undefined;
}

function setReasons(r: GpuReading, mask: number): void {
  if (!Number.isInteger(mask) || mask < 0) return;
  const bits = BigInt(mask);
  for (const reason of CLOCK_EVENT_REASONS)
    r.clockEvents[reason] = (bits & reasonBit(reason)) !== 0n;
}

function label(s: Sample, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = s.labels[n];
    if (v !== undefined && v !== "") return v;
  }
  return undefined;
}

export interface DcgmReadings {
  gpus: GpuReading[];
  mig: MigReading[];
  /** one message per value that was read but left out */
  warnings: string[];
}

export function mapDcgm(samples: Sample[]): DcgmReadings {
  const gpus = new Map<string, GpuReading>();
  const mig = new Map<string, MigReading & { freeBytes?: number }>();
  const warnings: string[] = [];
  for (const s of samples) {
    const uuid = label(s, "UUID", "uuid");
    const index = Number(label(s, "gpu") ?? "NaN");
    // Series without a GPU identity (the fixture's dummy values) say nothing about a GPU.
    if (uuid === undefined || !Number.isInteger(index) || !Number.isFinite(s.value)) continue;
    let gpu = gpus.get(uuid);
    if (!gpu) {
      gpu = { index, uuid, clockEvents: {} };
      gpus.set(uuid, gpu);
    }
    gpu.name ??= label(s, "modelName", "DCGM_FI_DEV_NAME");
    gpu.pciBusId ??= label(s, "pci_bus_id", "pciBusID");
    gpu.driverVersion ??= label(s, "DCGM_FI_DRIVER_VERSION");
    const gi = label(s, "GPU_I_ID");
    if (gi !== undefined && /^\d+$/.test(gi)) {
      gpu.migEnabled = true;
      const key = `${uuid}/${gi}`;
      const m = mig.get(key) ?? {
        gpuUuid: uuid,
        gpuInstanceId: Number(gi),
        profile: label(s, "GPU_I_PROFILE") ?? "unknown",
      };
      mig.set(key, m);
      if (s.name === "DCGM_FI_DEV_FB_USED") m.memoryUsedBytes = s.value * MIB;
      if (s.name === "DCGM_FI_DEV_FB_FREE") m.freeBytes = s.value * MIB;
      if (s.name === "DCGM_FI_DEV_FB_TOTAL") m.memoryTotalBytes = s.value * MIB;
      // Device-wide values (temperature, power, clocks) are repeated on every instance.
      if (PER_INSTANCE.has(s.name)) continue;
    }
    const prof = PROFILING_FIELDS[s.name];
    if (prof) {
      const bad = badProfilingValue(prof[1], s.value);
      if (bad === undefined) gpu[prof[0]] = s.value;
      else warnings.push(`${s.name} ${s.value} for ${uuid} left out: ${bad}`);
      continue;
    }
    GPU_METRICS[s.name]?.(gpu, s.value);
  }
  for (const g of gpus.values()) {
    if (
      g.memoryTotalBytes === undefined &&
      g.memoryUsedBytes !== undefined &&
      g.memoryFreeBytes !== undefined
    ) {
      g.memoryTotalBytes = g.memoryUsedBytes + g.memoryFreeBytes;
    }
  }
  const migOut: MigReading[] = [];
  for (const { freeBytes, ...m } of mig.values()) {
    if (
      m.memoryTotalBytes === undefined &&
      m.memoryUsedBytes !== undefined &&
      freeBytes !== undefined
    ) {
      m.memoryTotalBytes = m.memoryUsedBytes + freeBytes;
    }
    migOut.push(m);
  }
  return { gpus: [...gpus.values()], mig: migOut, warnings };
}
