export const PRICING_MODELS = ["on_demand", "spot", "reserved"] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

/** Region value that applies to every region without a row of its own. */
export const ANY_REGION = "*";

/**
 * A price as stored (the PriceEntry columns lookup needs); Prisma's PriceEntry fits this shape.
 * `gpuMemoryBytes` is per GPU; `pricingModel` is one of PRICING_MODELS but kept a string because
 * the database column is free text.
 */
export interface PriceRow {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryBytes: bigint;
  usdPerHourMicros: bigint;
  currency: string;
  effectiveFrom: Date;
  source: string;
  sourceDate: string;
  note: string | null;
}

/** A seed catalogue row as written by hand: the price is a decimal string, converted exactly. */
export interface CatalogueRow {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: PricingModel;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryBytes: bigint;
  usdPerHour: string;
  effectiveFrom: Date;
  source: string;
  sourceDate: string;
  note: string | null;
}
