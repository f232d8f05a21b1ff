import type { PriceRow } from "../pricing/types.ts";
import type { GpuWindowStats } from "../metrics/source.ts";
import type { Evidence, RecommendationKind } from "../zod/schemas/recommendation.ts";

/** One hour of per-GPU window statistics (the busy-but-inefficient rule reads them). */
export interface HourWindow {
  hourStart: Date;
  stats: readonly GpuWindowStats[];
}

// Inputs and outputs of the pure recommendation rules.

export interface RecoGpu {
  uuid: string;
  index: number;
  name: string;
  memoryTotalBytes: bigint;
  migMode: boolean;
  parentUuid: string | null;
}

export interface RecoHost {
  id: string;
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  owner: string | null;
  labels: Record<string, string>;
  gpus: RecoGpu[];
}

/** The UsageHour columns the rules read. */
export interface HourRow {
  hourStart: Date;
  gpuKey: string;
  parentKey: string | null;
  upSeconds: number;
  utilMean: number | null;
  utilP95: number | null;
  memPeakBytes: bigint | null;
  memTotalBytes: bigint | null;
  idleSeconds: number;
  idleHeldSeconds: number;
  costMicros: bigint;
  /** the ledger's idle cost of the row; absent where a caller did not read it (then cost × idle ÷ up) */
  idleCostMicros?: bigint;
}

export interface RecoInput {
  host: RecoHost;
  /** every ledger row of the host (host and GPU rows) over the longest window, any order */
  rows: readonly HourRow[];
  prices: readonly PriceRow[];
  now: Date;
  /**
   * closed hours' GPU window statistics (MetricsSource.gpuWindow per hour) over the window, for
   * "busy but inefficient"; absent when no metrics source was given (that rule is then skipped)
   */
  windows?: readonly HourWindow[];
}

export interface Candidate {
  kind: RecommendationKind;
  fingerprint: string;
  hostId: string;
  gpuUuid: string | null;
  title: string;
  details: string;
  evidence: Evidence;
  monthlySavingMicros: bigint;
}

export interface RecoOptions {
  /** idle release: hours in a row with every GPU idle */
  idleHours: number;
  /** share of an hour's up time that must be idle for the hour to count as idle */
  idleShare: number;
  /** right-size: p95 utilization of the busiest GPU in use must be under this */
  rightSizeUtilP95: number;
  /** room above the observed peak memory a smaller GPU must offer */
  memHeadroom: number;
  spotMaxRunHours: number;
  spotMinRuns: number;
  reservedUpShare: number;
  reservedWindowDays: number;
  /**
   * GPU-level idle: over this share of a multi-GPU host's GPU-hours idle in the reservation window,
   * with a GPU more than the work keeps busy at once, it is right-sized first and not reserved
   */
  gpuIdleShareMax: number;
  windowDays: number;
}

export const RECO_DEFAULTS: RecoOptions = {
  idleHours: 24,
  idleShare: 0.95,
  rightSizeUtilP95: 0.3,
  memHeadroom: 1.2,
  spotMaxRunHours: 6,
  spotMinRuns: 3,
  reservedUpShare: 0.9,
  reservedWindowDays: 30,
  gpuIdleShareMax: 0.25,
  windowDays: 7,
};

export const CONVENTION =
  "monthly saving = hourly price difference × 730 h (8,760 h a year ÷ 12), at today's catalogue prices";
