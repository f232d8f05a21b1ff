import { parseLabels } from "../core/labels.ts";
import { convertMicros, rateInForce, type ExchangeRateRow } from "./fx.ts";
import { spotQuote, SPOT_SOURCE } from "./spot-history.ts";
import { ACCOUNT_LABEL, ANY_REGION, DEFAULT_SITE, type PriceRow } from "./types.ts";

export interface PriceQuery {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  /** The price in effect at this instant applies (for the ledger: the hour's start). */
  at: Date;
  /** the host's labels, as stored (JSON) or parsed: `cloud_account` picks a provider's site list */
  labels?: string | Readonly<Record<string, string>> | null;
  /** the cloud account, when the caller knows it without labels */
  account?: string | null;
  /** the host's availability zone (cloud metadata): an AWS spot hour takes that zone's market price */
  zone?: string | null;
}

export interface PricedLookup {
  priced: true;
  usdPerHourMicros: bigint;
  currency: string;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryBytes: bigint;
  /** The row's region: the host's own region, or "*" when the price is the catch-all. */
  region: string;
  effectiveFrom: Date;
  source: string;
  /** when the row's figure was read (the pages flag a stale one) */
  sourceDate?: string;
  note: string | null;
  /** a row kept in another currency (e.g. "CNY"), and its price in micro-units of it */
  localCurrency?: string | null;
  localPerHourMicros?: bigint | null;
  /** the rate `usdPerHourMicros` was converted at (the one in force at `at`); null for USD rows */
  exchangeRate?: ExchangeRateRow | null;
  /** which of the provider's site lists priced it (Tencent: "international" or "china"); null when
   * the provider has one list */
  site?: string | null;
  /** a spot hour priced from the spot price history: the zone whose market price it is, or the
   * region whose zones' prices were averaged (`zones` of them) */
  spotMarket?: { where: string; zones: number } | null;
}

/** What is missing, so the UI can say e.g. "no spot price for g5.xlarge" instead of "$0". */
export type UnpricedReason =
  | "instance_type" // nothing at all for this provider + instance type
  | "pricing_model" // the type is catalogued, but not under this pricing model
  | "not_yet_effective" // rows exist, but none had started at `at`
  | "no_exchange_rate"; // the row is kept in another currency and no rate was in force at `at`

export interface UnpricedLookup {
  priced: false;
  missing: UnpricedReason;
  reason: string;
}

export type PriceLookup = PricedLookup | UnpricedLookup;

// Exporter labels and cloud metadata disagree on case ("Standard_ND96asr_v4" vs lower case) and on
// "on-demand" vs "on_demand"; matching ignores both so a label spelling never unprices a host.
function norm(value: string): string {
  return value.trim().toLowerCase().replaceAll("-", "_");
}

function normType(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Among rows in effect at `at`, the host's region beats "*", then the latest effectiveFrom wins.
 * No fallback between pricing models: pricing a spot host at on-demand would overstate it 2-3x.
 */
export function lookupPrice(rows: readonly PriceRow[], query: PriceQuery): PriceLookup {
  const provider = norm(query.provider);
  const instanceType = normType(query.instanceType);
  const region = normType(query.region);
  const model = norm(query.pricingModel);
  const label = `${query.provider} ${query.instanceType}`;

  const ofType = rows.filter(
    (r) => norm(r.provider) === provider && normType(r.instanceType) === instanceType,
  );
  if (ofType.length === 0) {
    return { priced: false, missing: "instance_type", reason: `no catalogue price for ${label}` };
  }
  const ofModel = ofType.filter((r) => norm(r.pricingModel) === model);
  const fromHistory = model === "spot" ? spotFromHistory(ofType, ofModel, query) : null;
  if (fromHistory) return fromHistory;
  if (ofModel.length === 0) {
    const known = [...new Set(ofType.map((r) => r.pricingModel))].sort().join(", ");
    return {
      priced: false,
      missing: "pricing_model",
      reason: `no ${query.pricingModel} price for ${label} (catalogued: ${known})`,
    };
  }
  const inRegion = ofModel.filter((r) => r.region === ANY_REGION || normType(r.region) === region);
  const inEffect = ofSite(
    inRegion.filter((r) => r.effectiveFrom.getTime() <= query.at.getTime()),
    query,
  );
  const best = pickBest(inEffect, region);
  if (!best) {
    const earliest = inRegion.reduce<Date | null>(
      (min, r) => (min === null || r.effectiveFrom < min ? r.effectiveFrom : min),
      null,
    );
    const from = earliest ? ` (first from ${earliest.toISOString()})` : "";
    return {
      priced: false,
      missing: "not_yet_effective",
      reason: `no ${query.pricingModel} price for ${label} in ${query.region} at ${query.at.toISOString()}${from}`,
    };
  }
  const converted = inUsd(best, query.at, label);
  if (!converted.ok) return converted.unpriced;
  return {
    priced: true,
    usdPerHourMicros: converted.usdPerHourMicros,
    // the currency of usdPerHourMicros: always USD (a CNY row's own currency is `localCurrency`)
    currency: "USD",
    gpuModel: best.gpuModel,
    gpuCount: best.gpuCount,
    gpuMemoryBytes: best.gpuMemoryBytes,
    region: best.region,
    effectiveFrom: best.effectiveFrom,
    source: best.source,
    sourceDate: best.sourceDate,
    note: best.note,
    localCurrency: converted.rate ? best.currency : null,
    localPerHourMicros: converted.rate ? (best.localPerHourMicros ?? null) : null,
    exchangeRate: converted.rate,
    site: best.site ? best.site : null,
  };
}

/**
 * An AWS spot hour priced from the imported spot price history (spot-history.ts: the host's zone,
 * else its region's zones' mean); the GPU figures come from the type's spot row, else any row of it.
 * Null when the history has nothing in force, so the catalogue's spot row prices the hour.
 */
function spotFromHistory(
  ofType: readonly PriceRow[],
  ofModel: readonly PriceRow[],
  query: PriceQuery,
): PricedLookup | null {
  const spec = ofModel[0] ?? ofType[0];
  const history = ofType.find((r) => r.spotHistory)?.spotHistory;
  if (!spec || !history) return null;
  const quote = spotQuote(history, query);
  if (!quote) return null;
  return {
    priced: true,
    usdPerHourMicros: quote.usdPerHourMicros,
    currency: "USD",
    gpuModel: spec.gpuModel,
    gpuCount: spec.gpuCount,
    gpuMemoryBytes: spec.gpuMemoryBytes,
    region: quote.region,
    effectiveFrom: quote.at,
    source: SPOT_SOURCE,
    sourceDate: quote.at.toISOString().slice(0, 10),
    note: quote.note,
    localCurrency: null,
    localPerHourMicros: null,
    exchangeRate: null,
    site: null,
    spotMarket: { where: quote.where, zones: quote.zones },
  };
}

/**
 * Where a provider publishes two lists (Tencent's international USD and China-site CNY lists), the
 * rows of the host's account's site: the account is the query's, else its `cloud_account` label,
 * and its site is the setting's (row.accountSites), else the international site. When that site
 * has no row for the hour, the other site's row prices it rather than nothing.
 */
function ofSite(rows: readonly PriceRow[], query: PriceQuery): readonly PriceRow[] {
  const sited = rows.find((r) => r.site);
  if (!sited) return rows;
  const labels =
    typeof query.labels === "string" ? parseLabels(query.labels) : (query.labels ?? {});
  const account = query.account ?? labels[ACCOUNT_LABEL];
  const wanted = (account ? sited.accountSites?.[account] : undefined) ?? DEFAULT_SITE;
  const own = rows.filter((r) => !r.site || r.site === wanted);
  return own.length > 0 ? own : rows;
}

type Converted =
  | { ok: true; usdPerHourMicros: bigint; rate: ExchangeRateRow | null }
  | { ok: false; unpriced: UnpricedLookup };

/**
 * A USD row as it is; a row kept in another currency converted at the rate in force at `at`
 * (exact, one rounding: lib/pricing/fx.ts), so a past hour keeps the rate of its own day.
 */
function inUsd(row: PriceRow, at: Date, label: string): Converted {
  if (row.currency.toUpperCase() === "USD") {
    return { ok: true, usdPerHourMicros: row.usdPerHourMicros, rate: null };
  }
  const local = row.localPerHourMicros;
  const rate = rateInForce(row.rates ?? [], row.currency, at);
  if (local === null || local === undefined || !rate) {
    const why = local == null ? "no local price" : "no exchange rate";
    return {
      ok: false,
      unpriced: {
        priced: false,
        missing: "no_exchange_rate",
        reason:
          `${label} is priced in ${row.currency} and has ${why} in force at ` +
          `${at.toISOString()}: add a ${row.currency} exchange rate on the settings page`,
      },
    };
  }
  return { ok: true, usdPerHourMicros: convertMicros(local, rate.usdPerUnit), rate };
}

function pickBest(candidates: readonly PriceRow[], region: string): PriceRow | undefined {
  const specific = candidates.filter(
    (r) => r.region !== ANY_REGION && normType(r.region) === region,
  );
  const pool = specific.length > 0 ? specific : candidates.filter((r) => r.region === ANY_REGION);
  let best: PriceRow | undefined;
  for (const r of pool) {
    if (!best || r.effectiveFrom.getTime() > best.effectiveFrom.getTime()) best = r;
  }
  return best;
}

/** "fallback (no eu-west-1 price)" when the "*" row priced a host; null for a regional row. */
export function priceRegionNote(priceRegion: string, hostRegion: string): string | null {
  return priceRegion === ANY_REGION ? `fallback (no ${hostRegion} price)` : null;
}
