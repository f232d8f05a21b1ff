// Helpers the shipped catalogue files (catalogue.ts, catalogue-regional.ts) write rows with.
import { ANY_REGION, type CatalogueRow, type PricingModel } from "./types.ts";

const GIB = 1024n ** 3n;

/** Rows apply from this date unless they say otherwise (a price change is a later row). */
export const BASELINE = new Date("2024-01-01T00:00:00Z");

export interface Spec {
  provider: string;
  instanceType: string;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryBytes: bigint;
}

/** Memory is per GPU, nominal (the marketing figure in GiB), not what nvidia-smi reports. */
export function spec(
  provider: string,
  instanceType: string,
  gpuModel: string,
  gpuCount: number,
  gib: bigint,
): Spec {
  return { provider, instanceType, gpuModel, gpuCount, gpuMemoryBytes: gib * GIB };
}

export interface RowOpts {
  region?: string;
  from?: Date;
  note?: string | null;
  /** the price is in this currency (e.g. "CNY"), not USD */
  currency?: string;
}

/** One catalogue row: `perHour` in USD, or in `opts.currency`; region "*" unless given. */
export function price(
  s: Spec,
  pricingModel: PricingModel,
  perHour: string,
  source: string,
  sourceDate: string,
  opts: RowOpts | string | null = null,
): CatalogueRow {
  const o: RowOpts = typeof opts === "string" || opts === null ? { note: opts } : opts;
  const currency = o.currency ?? "USD";
  return {
    ...s,
    region: o.region ?? ANY_REGION,
    pricingModel,
    ...(currency === "USD" ? { usdPerHour: perHour } : { local: { currency, perHour } }),
    effectiveFrom: o.from ?? BASELINE,
    source,
    sourceDate,
    note: o.note ?? null,
  };
}
