// What every source (nvidia-smi, DCGM, simulated) turns its input into: values already in
// base units (bytes, hertz, watts, ratios 0-1). An optional field that is undefined means the
// source said "not available", and the series is left out.

import type { Holder } from "./holders/holder.ts";

export const CLOCK_EVENT_REASONS = [
  "gpu_idle",
  "applications_clocks_setting",
  "sw_power_cap",
  "hw_slowdown",
  "sync_boost",
  "sw_thermal_slowdown",
  "hw_thermal_slowdown",
  "hw_power_brake_slowdown",
  "display_clocks_setting",
] as const;

export type ClockEventReason = (typeof CLOCK_EVENT_REASONS)[number];

/** nvml.h nvmlClocksEventReason* bits, in CLOCK_EVENT_REASONS order (1 << i). */
export function reasonBit(reason: ClockEventReason): bigint {
  return 1n << BigInt(CLOCK_EVENT_REASONS.indexOf(reason));
}

export interface GpuReading {
  index: number;
  uuid: string;
  name?: string;
  pciBusId?: string;
  driverVersion?: string;
  migEnabled?: boolean;
  utilizationRatio?: number;
  memoryUtilizationRatio?: number;
  memoryTotalBytes?: number;
  memoryUsedBytes?: number;
  memoryFreeBytes?: number;
  temperatureCelsius?: number;
  powerDrawWatts?: number;
  powerLimitWatts?: number;
  smClockHertz?: number;
  memoryClockHertz?: number;
  fanSpeedRatio?: number;
  performanceState?: number;
  eccCorrectedTotal?: number;
  eccUncorrectedTotal?: number;
  /** only reasons the GPU reports (supported and not N/A) are present */
  clockEvents: Partial<Record<ClockEventReason, boolean>>;
  // DCGM profiling (DCP) fields, where the hardware and DCGM give them (never under MIG here).
  /** fraction of cycles an SM had at least one warp assigned, averaged over SMs, 0-1 */
  smActiveRatio?: number;
  /** resident warps as a fraction of the maximum, averaged over SMs, 0-1 */
  smOccupancyRatio?: number;
  /** fraction of cycles the tensor (HMMA) pipe was active, 0-1 */
  tensorActiveRatio?: number;
  /** fraction of cycles device memory was sending or receiving data, 0-1 */
  dramActiveRatio?: number;
  /** fraction of time the graphics/compute engine was active, 0-1 */
  graphicsEngineActiveRatio?: number;
  /** bytes per second over DCGM's sampling interval, protocol headers included */
  pcieTxBytesPerSecond?: number;
  pcieRxBytesPerSecond?: number;
  nvlinkTxBytesPerSecond?: number;
  nvlinkRxBytesPerSecond?: number;
}

/** The profiling fields of GpuReading, in the order the exporter emits them. */
export const PROFILING_KEYS = [
  "smActiveRatio",
  "smOccupancyRatio",
  "tensorActiveRatio",
  "dramActiveRatio",
  "graphicsEngineActiveRatio",
  "pcieTxBytesPerSecond",
  "pcieRxBytesPerSecond",
  "nvlinkTxBytesPerSecond",
  "nvlinkRxBytesPerSecond",
] as const satisfies readonly (keyof GpuReading)[];

export type ProfilingKey = (typeof PROFILING_KEYS)[number];

/** What only the occasional `nvidia-smi -q -x` snapshot tells about a GPU. */
export interface GpuDetails {
  /** as nvidia-smi prints it: None, Pass-Through, VGPU, Host VGPU, Host VSGA */
  virtualizationMode?: string;
  /** vGPU software licence (a vGPU guest, or passthrough with licensing) */
  vgpuLicensed?: boolean;
  vgpuLicensedProduct?: string;
  /** unix seconds, from "Licensed (Expiry: 2026-7-7 16:1:44 GMT)" */
  vgpuLicenseExpirySeconds?: number;
}

export interface ProcessReading {
  /** the physical GPU's UUID (nvidia-smi reports the parent's even under MIG) */
  gpuUuid: string;
  pid: number;
  processName: string;
  usedMemoryBytes?: number;
  /** the MIG GPU instance the process runs in, where a -q -x snapshot said it */
  gpuInstanceId?: number;
  /** who holds it, where attribution is on (exporter/holders/attribute.ts) */
  holder?: Holder;
}

export interface MigReading {
  gpuUuid: string;
  gpuInstanceId: number;
  /** e.g. "3g.40gb"; "unknown" when no listing named it */
  profile: string;
  memoryTotalBytes?: number;
  memoryUsedBytes?: number;
}

/** Result of a pure parse: what could be read, plus one message per skipped line or value. */
export interface ParseResult<T> {
  items: T[];
  warnings: string[];
}
