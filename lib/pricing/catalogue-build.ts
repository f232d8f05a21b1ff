// Helpers the shipped catalogue files (catalogue.ts, catalogue-regional.ts) write rows with.
import { ANY_REGION, type CatalogueRow, type PricingModel, type Site } from "./types.ts";

const GIB = 1024n ** 3n;

/** Rows apply from this date unless they say otherwise (a price change is a later row). */
export const BASELINE = new Date("2024-01-01T00:00:00Z");

/**
 * AWS cut P4d, P5 and P5en On-Demand prices from 2025-06-01 ("Announcing up to 45% price reduction
 * for Amazon EC2 NVIDIA GPU-accelerated instances", AWS What's New, 2025-06-05); Savings Plans
 * followed. The old figure stays in force before this instant, so past hours keep it.
 */
export const AWS_P_CUT = new Date("2025-06-01T00:00:00Z");

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

/**
 * The note of a row whose figure was worked out rather than read from its source (a commitment
 * discount applied to a list price): every page that shows the note shows the word.
 */
export const DERIVED = "derived, not read from the page: ";

/**
 * Every spot row is one reading of a moving market price: its note says so and when it was read,
 * whatever else it says, so a page showing the note never presents it as the market price of an
 * hour (the spot price history import prices those).
 */
export function spotNote(sourceDate: string, note: string | null): string {
  const head = `indicative: one reading of the spot price, as of ${sourceDate}, not the market price of any hour`;
  return note ? `${head}; ${note}` : head;
}

export interface RowOpts {
  region?: string;
  from?: Date;
  note?: string | null;
  /** the price is in this currency (e.g. "CNY"), not USD */
  currency?: string;
  /** the provider's site whose list this is (Tencent Cloud) */
  site?: Site;
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
    note: pricingModel === "spot" ? spotNote(sourceDate, o.note ?? null) : (o.note ?? null),
    ...(o.site ? { site: o.site } : {}),
  };
}
