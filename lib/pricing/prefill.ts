// The link from an "unpriced" mark to the pricing catalogue's price form, filled in with what the
// host says about itself (pure: used by the fleet, instance and costs pages; the form reads it back).

export const PRICE_PREFILL_FIELDS = [
  "provider",
  "instanceType",
  "region",
  "pricingModel",
  "gpuModel",
  "gpuCount",
] as const;
export type PricePrefill = Partial<Record<(typeof PRICE_PREFILL_FIELDS)[number], string>>;

export function addPriceHref(host: {
  provider?: string;
  instanceType?: string;
  region?: string;
  pricingModel?: string;
  gpuModel?: string | null;
  gpuCount?: number | null;
}): string {
  const p = new URLSearchParams({ addPrice: "1" });
  for (const k of PRICE_PREFILL_FIELDS) {
    const v = host[k];
    if (v !== undefined && v !== null && String(v) !== "" && String(v) !== "unknown")
      p.set(k, String(v));
  }
  return `/settings/pricing?${p.toString()}#pricing`;
}

/** The prefill a settings URL carries, or null when it asks for none. */
export function readPricePrefill(params: URLSearchParams): PricePrefill | null {
  if (params.get("addPrice") !== "1") return null;
  const out: PricePrefill = {};
  for (const k of PRICE_PREFILL_FIELDS) {
    const v = params.get(k);
    if (v !== null) out[k] = v.slice(0, 200);
  }
  return out;
}
