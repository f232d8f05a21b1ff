import { mulDivRound } from "@/lib/core/money.ts";
import type { FocusRow } from "./columns.ts";

// What the FOCUS row builder reads (a ledger host-hour and the facts around it) and what it adds
// up per charge period before it writes a row.

export type Granularity = "hourly" | "daily";

/** One host row of the ledger plus what its GPU rows add. */
export interface LedgerHour {
  hostId: string;
  hourStart: Date;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  currency: string;
  upSeconds: number;
  costMicros: bigint;
  idleCostMicros: bigint;
  /** "bill": costMicros is the billed effective cost (issue 26); null or absent: the list estimate */
  actualSource?: string | null;
  /** the list estimate kept beside an actual */
  listCostMicros?: bigint | null;
  gpuModel: string | null;
  utilMean: number | null;
  /** physical GPUs (not MIG slices) with a ledger row this hour, and their up seconds */
  gpuCount: number;
  gpuSeconds: number;
}

export interface HostFacts {
  hostname: string;
  owner: string | null;
  labels: Readonly<Record<string, string>>;
}

export interface FocusContext {
  hosts: ReadonlyMap<string, HostFacts>;
  /** the catalogue's on-demand price per hour (micros) for the hour's type and region, in the
   * hour's currency, or null */
  onDemandPrice: (hour: LedgerHour) => bigint | null;
  /** GPUs per instance of a type, from the catalogue, or null */
  catalogueGpuCount: (provider: string, instanceType: string) => number | null;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
const NANO = 1_000_000_000n;

export type Category = FocusRow["PricingCategory"];

export function pricingCategory(pricingModel: string): Category {
  const m = pricingModel.trim().toLowerCase().replaceAll("-", "_");
  if (m === "on_demand" || m === "ondemand") return "Standard";
  if (m === "spot" || m === "preemptible") return "Dynamic";
  if (m === "reserved" || m === "savings_plan" || m === "committed") return "Committed";
  return "Other";
}

/** [start, end) of the UTC calendar month holding `at`. */
export function utcMonth(at: Date): { start: Date; end: Date } {
  const start = new Date(0);
  start.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth(), 1);
  const end = new Date(0);
  end.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return { start, end };
}

export function hoursNano(seconds: number): bigint {
  return mulDivRound(BigInt(seconds), NANO, 3600n);
}

export interface Charge {
  hour: LedgerHour;
  periodStart: number;
  /** the on-demand catalogue price the list cost was taken from; null: the ledger's own */
  listPrice: bigint | null;
  upSeconds: number;
  costMicros: bigint;
  idleMicros: bigint;
  listMicros: bigint;
  /** the charge's hours cost what the bill charged (actuals), not the list estimate */
  actual: boolean;
  gpuSeconds: number;
  gpuCount: number;
  gpuModel: string | null;
  utilSum: number;
  utilWeight: number;
}
