// The pricing catalogue's filters: provider, instance type (any part of it), region, GPU model and
// "stale only". Pure, so the page and its test share it; the choices offered come from the rows.
import { isStale } from "@/lib/pricing/stale.ts";
import type { PricingRowDto } from "@/lib/zod/schemas/pricing.ts";

export interface PricingFilters {
  provider: string;
  /** matched anywhere in the instance type, ignoring case */
  instanceType: string;
  region: string;
  gpuModel: string;
  staleOnly: boolean;
}

export const NO_PRICING_FILTERS: PricingFilters = {
  provider: "",
  instanceType: "",
  region: "",
  gpuModel: "",
  staleOnly: false,
};

export function isFiltered(f: PricingFilters): boolean {
  return (
    f.provider !== "" ||
    f.instanceType.trim() !== "" ||
    f.region !== "" ||
    f.gpuModel !== "" ||
    f.staleOnly
  );
}

type FilterRow = Pick<
  PricingRowDto,
  "provider" | "instanceType" | "region" | "gpuModel" | "sourceDate"
>;

export function matchesPricingFilters(r: FilterRow, f: PricingFilters, now: Date): boolean {
  const type = f.instanceType.trim().toLowerCase();
  return (
    (!f.provider || r.provider === f.provider) &&
    (!type || r.instanceType.toLowerCase().includes(type)) &&
    (!f.region || r.region === f.region) &&
    (!f.gpuModel || r.gpuModel === f.gpuModel) &&
    (!f.staleOnly || isStale(r.sourceDate, now))
  );
}

const sorted = (values: Iterable<string>) =>
  [...new Set(values)].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));

/** The values each select offers: those present in the rows, sorted ("*" region last). */
export function pricingFilterOptions(rows: readonly FilterRow[]): {
  providers: string[];
  regions: string[];
  gpuModels: string[];
  instanceTypes: string[];
} {
  const regions = sorted(rows.map((r) => r.region).filter((r) => r !== "*"));
  if (rows.some((r) => r.region === "*")) regions.push("*");
  return {
    providers: sorted(rows.map((r) => r.provider)),
    regions,
    gpuModels: sorted(rows.map((r) => r.gpuModel)),
    instanceTypes: sorted(rows.map((r) => r.instanceType)),
  };
}

/** How many rows are stale now (the "stale" filter's count). */
export function staleCount(rows: readonly FilterRow[], now: Date): number {
  return rows.filter((r) => isStale(r.sourceDate, now)).length;
}
