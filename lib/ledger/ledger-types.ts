import type { PriceLookup } from "../pricing/lookup.ts";
import type { HostSample } from "../metrics/source.ts";

export type { GpuSample, HostSample } from "../metrics/source.ts";

export interface HostAttribution {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
}

export interface IdleRule {
  /** A GPU is "low" while util < this (0-1). */
  utilThreshold: number;
  /** ...and counts idle once the low stretch has lasted this long. */
  minIdleSeconds: number;
  /** Memory used above this share of total makes an idle GPU "held" rather than "empty". */
  heldMemRatio: number;
}

export const DEFAULT_IDLE_RULE: IdleRule = {
  utilThreshold: 0.05,
  minIdleSeconds: 30 * 60,
  heldMemRatio: 0.01,
};

export interface LedgerInput {
  /** Start of the closed hour, UTC, on a whole hour. */
  hourStart: Date;
  host: HostAttribution;
  /** The price in effect at hourStart; it applies to the whole hour. */
  price: PriceLookup;
  /** Samples from ledgerWindow(hourStart).from to hourStart + 1 h; earlier ones only feed idle. */
  samples: readonly HostSample[];
  /** Nominal scrape interval: one sample stands for at most this many seconds. */
  intervalSeconds: number;
  idle?: Partial<IdleRule>;
}

/** host: the instance; gpu: a plain GPU; mig_parent: a GPU in MIG mode; mig_slice: one MIG instance. */
export type LedgerRowKind = "host" | "gpu" | "mig_parent" | "mig_slice";

/** One UsageHour row plus the detail the table has no column for (kind, parent, held/empty split). */
export interface LedgerRow {
  kind: LedgerRowKind;
  gpuKey: string;
  parentUuid: string | null;
  hourStart: Date;
  gpuModel: string | null;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  upSeconds: number;
  samples: number;
  utilMean: number | null;
  utilP95: number | null;
  memPeakBytes: bigint | null;
  memTotalBytes: bigint | null;
  idleSeconds: number;
  idleHeldSeconds: number;
  idleEmptySeconds: number;
  priced: boolean;
  costMicros: bigint;
  idleCostMicros: bigint;
  currency: string;
}
