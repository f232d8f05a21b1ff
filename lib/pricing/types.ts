import type { ExchangeRateRow } from "./fx.ts";
import type { SpotPoint } from "./spot-history.ts";

// the pricing models are the metric contract's `pricing_model` values (exporter/contract.ts)
import { PRICING_MODELS, type PricingModel } from "../../exporter/contract.ts";
export { PRICING_MODELS, type PricingModel };

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
  /** for a USD row the price; for another currency its conversion at effectiveFrom (lists only) */
  usdPerHourMicros: bigint;
  currency: string;
  /** the price in micro-units of `currency` when that is not USD; lookup converts it per hour */
  localPerHourMicros?: bigint | null;
  /** the exchange rates of `currency` (loadPriceRows and catalogueRows attach them) */
  rates?: readonly ExchangeRateRow[];
  effectiveFrom: Date;
  source: string;
  sourceDate: string;
  note: string | null;
  /** which of the provider's price lists ("" its only one; Tencent: SITES); absent means "" */
  site?: string;
  /** the accounts (cloud_account host label) that buy from each site of this row's provider,
   * e.g. { "1250000000": "china" }; an account not named buys from DEFAULT_SITE. loadPriceRows
   * attaches it from the setting (tencentChinaSiteAccounts) */
  accountSites?: Readonly<Record<string, string>>;
  /** AWS rows: the instance type's imported spot price history, sorted by time (loadPriceRows
   * attaches it); a spot hour is priced from it before the catalogue's spot row */
  spotHistory?: readonly SpotPoint[];
}

/** A provider's two price lists (Tencent Cloud): the international site (USD) and the China site (CNY). */
export const SITES = ["international", "china"] as const;
export type Site = (typeof SITES)[number];
/** the site of an account the settings do not name */
export const DEFAULT_SITE: Site = "international";
/** the host label that names a host's cloud account (the account id its bill is under) */
export const ACCOUNT_LABEL = "cloud_account";

/**
 * A seed catalogue row as written by hand: the price is a decimal string, converted exactly. A
 * USD row gives `usdPerHour`; a row kept in another currency gives `local` instead.
 */
export interface CatalogueRow {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: PricingModel;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryBytes: bigint;
  usdPerHour?: string;
  local?: { currency: string; perHour: string };
  effectiveFrom: Date;
  source: string;
  sourceDate: string;
  note: string | null;
  /** "" (the provider's only list) unless the provider has two sites */
  site?: Site;
}

/** What installing shipped rows (prices, rates) did. */
export interface InstallResult {
  inserted: number;
  updated: number;
  /** rows left as they are: unchanged, changed by a person, or retired */
  kept: number;
}
