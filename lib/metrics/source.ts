// The one interface every read of GPU metrics goes through, so the app works the same on the
// embedded collector's store and on any Prometheus-compatible HTTP API. Three query families:
// current values and series for pages, GPU-window statistics for alerts and signals, and per-minute
// host samples for the ledger. Each is implemented once in lib/metrics/embedded/ and once in
// lib/metrics/prometheus/; the mode is chosen once (lib/metrics/index.ts) and carried in the job
// context (lib/tick/context.ts). See docs/architecture.md.
import type { Holder, HolderMemory } from "../core/holders.ts";
import type { WorkUnit } from "../../exporter/contract.ts";

export interface TimeRange {
  from: Date;
  to: Date;
  /** the most points one series may carry; sources downsample to fit */
  maxPoints: number;
}

/** One point of a series; `t` is epoch milliseconds, `v` null where there is no data. */
export interface SeriesPoint {
  t: number;
  v: number | null;
}

export interface CurrentGpu {
  hostId: string;
  hostname: string;
  uuid: string;
  index: number;
  name: string;
  /** SM busy 0-1; null where the driver reports N/A (MIG) or the GPU is not reporting */
  util: number | null;
  memUsedBytes: number | null;
  memTotalBytes: number | null;
  powerWatts: number | null;
  tempCelsius: number | null;
  processes: number | null;
  /** DCGM SM active 0-1, where the exporter has profiling; absent or null elsewhere */
  smActive?: number | null;
  /** last time this GPU was seen by the source */
  lastSeen: Date | null;
  /** false when the GPU (or its host's exporter) has not reported within two intervals */
  reporting: boolean;
  /** MIG slices: the parent GPU's uuid and profile; null for whole GPUs */
  parentUuid: string | null;
  migProfile: string | null;
}

export interface GpuSeries {
  uuid: string;
  index: number;
  name: string;
  util: SeriesPoint[];
  memUsedBytes: SeriesPoint[];
  powerWatts: SeriesPoint[];
  tempCelsius: SeriesPoint[];
  smClockHz: SeriesPoint[];
  /** SM active 0-1 (DCGM profiling); empty where the GPU has none */
  smActive?: SeriesPoint[];
}

export interface FleetSeries {
  /** mean SM utilization over reporting GPUs */
  util: SeriesPoint[];
  memUsedBytes: SeriesPoint[];
  gpusReporting: SeriesPoint[];
}

export interface ProcessInfo {
  gpuUuid: string;
  pid: number;
  processName: string;
  usedMemoryBytes: number;
  /** MIG: the GPU instance the process runs in (its slice is migKey(gpuUuid, gpuInstanceId)) */
  gpuInstanceId?: number;
  /** who holds the process (issue 24); null or absent when the exporter names nobody */
  holder?: Holder | null;
}

export interface SourceHealth {
  ok: boolean;
  /** when the source last answered successfully */
  lastSuccess: Date | null;
  error: string | null;
}

// --- GPU windows (alert rules, scale-out and efficiency signals) ---

/** What the alert rules need from one physical GPU's metrics, aggregated over a window. */
export interface GpuWindowStats {
  hostId: string;
  gpuUuid: string;
  /** share of the window with a utilization reading, 0-1 */
  utilCoverage: number;
  utilMax: number | null;
  utilAvg: number | null;
  memMaxBytes: number | null;
  memTotalBytes: number | null;
  processesMax: number | null;
  tempAvg: number | null;
  tempCoverage: number;
  /** share of the window with a thermal / power clock event active; null without readings */
  thermalRatio: number | null;
  powerRatio: number | null;
  throttleCoverage: number;
  /** uncorrected ECC errors added during the window; null when the GPU reports no ECC */
  eccUncorrectedIncrease: number | null;
  /** the newest data point in the window */
  lastAt: Date | null;
  /** SM active (DCGM profiling) over the window; absent or null where the GPU has none */
  smActiveMax?: number | null;
  smActiveAvg?: number | null;
  /** share of the window with an SM active reading, 0-1 */
  smActiveCoverage?: number;
}

/** Share of a window one physical GPU spent above a utilization threshold. */
export interface GpuShareAbove {
  hostId: string;
  gpuUuid: string;
  /** share of the window's readings with utilization strictly above the threshold, 0-1 */
  shareAbove: number;
  /** share of the window with a utilization reading, 0-1 (0 readings: the GPU is absent) */
  coverage: number;
}

// --- hour samples (the ledger) ---

export interface GpuSample {
  uuid: string;
  model: string;
  /** SM busy 0-1; null where the driver reports N/A (MIG). */
  util: number | null;
  memUsedBytes: number;
  memTotalBytes: number;
  processes: number;
  /** SM active 0-1 where the GPU has DCGM profiling (the idle rule prefers it) */
  smActive?: number | null;
  /** Set on a MIG slice: the uuid of the physical GPU it is carved from. */
  migParentUuid?: string;
  /** Share of the parent GPU this slice represents (e.g. 3/7 for a 3g slice). */
  migFraction?: number;
  /** who held it in this sample and with how much memory (mean bytes); empty or absent: nobody */
  holders?: HolderMemory[];
}

export interface HostSample {
  t: Date;
  /** false when the scrape failed; such a sample carries no GPU data. */
  up: boolean;
  gpus: readonly GpuSample[];
}

/** One sample per host per minute, keyed by host id. */
export type SamplesByHost = Map<string, HostSample[]>;

// --- work counters (issue 28: measured cost per unit of work) ---

/** The work one host counted in one UTC hour for one unit, model and job. */
export interface WorkHourRow {
  hostId: string;
  hourStart: Date;
  unit: WorkUnit;
  /** the model_name label (Triton's `model`); "" when the series names none */
  modelName: string;
  job: string;
  /** vllm | sglang | tgi | triton | textfile */
  source: string;
  /** the counters' increase over the hour (0: counting, nothing done) */
  units: number;
}

export interface MetricsSource {
  readonly mode: "embedded" | "prometheus";
  currentGpus(): Promise<CurrentGpu[]>;
  fleetSeries(range: TimeRange): Promise<FleetSeries>;
  gpuSeries(hostId: string, range: TimeRange): Promise<GpuSeries[]>;
  processes(hostId: string): Promise<ProcessInfo[]>;
  health(): Promise<SourceHealth>;

  /** Physical GPUs (not MIG slices) with data in [from, to). */
  gpuWindow(from: Date, to: Date): Promise<GpuWindowStats[]>;
  /**
   * Physical GPUs with data in [from, to): the share of the window each spent above `threshold`
   * (0-1 utilization). A pool's share is poolShareAbove() over its GPUs.
   */
  gpuShareAbove(from: Date, to: Date, threshold: number): Promise<GpuShareAbove[]>;
  /** One sample per host per minute in [from, to), stamped at the minute's start. */
  hourSamples(from: Date, to: Date, stepS: number): Promise<SamplesByHost>;
  /**
   * Where a fresh ledger starts: the oldest sample the backend holds (embedded: the first stored
   * minute; null while it holds none), or for Prometheus the start of the last closed hour before
   * `now`, since its history predates the ledger and is not backfilled on a first start.
   */
  ledgerStart(now: Date): Promise<Date | null>;
  /**
   * Work counters' hourly increases in [from, to) (hour-aligned), per host, unit, model and job:
   * embedded from the collector's WorkHour rows, Prometheus from increase() over each hour.
   */
  workHours(from: Date, to: Date): Promise<WorkHourRow[]>;
}

/**
 * A pool's (an instance type's, a team's, the fleet's) share above the threshold: the mean of its
 * GPUs' shares weighted by each GPU's coverage, so a GPU that reported half the window counts half.
 * Null when no GPU of the pool reported.
 */
export function poolShareAbove(gpus: readonly GpuShareAbove[]): number | null {
  let weighted = 0;
  let covered = 0;
  for (const g of gpus) {
    weighted += g.shareAbove * g.coverage;
    covered += g.coverage;
  }
  return covered > 0 ? weighted / covered : null;
}
