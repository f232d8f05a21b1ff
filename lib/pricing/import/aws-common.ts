import type { PricingModel } from "../types.ts";
import { AWS_GPU_FAMILIES, awsFamily, type GpuSpec } from "./gpu-specs.ts";
import { decimalToMicros } from "./price.ts";
import { ImportFormatError, type ImportRow } from "./types.ts";

// What the JSON and the CSV flavours of the AmazonEC2 offer file share: which products are GPU
// instances we price (Linux, shared tenancy, no pre-installed software, capacity in use, on-demand
// market), which terms become rows, and the row itself.

const GIB = 1024n ** 3n;

/** Product attributes under the JSON file's names; the CSV reader maps its columns onto them. */
export interface AwsProduct {
  sku: string;
  productFamily: string;
  attributes: Readonly<Record<string, string>>;
}

export interface KeptProduct {
  instanceType: string;
  region: string;
  spec: GpuSpec;
  gpuCount: number;
}

const REQUIRED: Record<string, string> = {
  operatingSystem: "Linux",
  tenancy: "Shared",
  preInstalledSw: "NA",
  capacitystatus: "Used",
};

/** A kept GPU product, or the reason it is left out (counted in the report). */
export function classifyAwsProduct(p: AwsProduct): KeptProduct | { skip: string; gpu: boolean } {
  const a = p.attributes;
  const instanceType = a.instanceType ?? "";
  if (!p.productFamily.startsWith("Compute Instance") || instanceType === "") {
    return { skip: "not a compute instance", gpu: false };
  }
  const family = awsFamily(instanceType);
  const spec = AWS_GPU_FAMILIES[family];
  if (!spec) {
    return a.instanceFamily === "GPU instance"
      ? { skip: `GPU family not in the GPU table: ${family}`, gpu: true }
      : { skip: "not a GPU instance", gpu: false };
  }
  for (const [key, want] of Object.entries(REQUIRED)) {
    if (a[key] !== want) return { skip: `${key} is not ${want}`, gpu: true };
  }
  if (a.licenseModel !== undefined && a.licenseModel !== "No License required") {
    return { skip: "licenseModel is not No License required", gpu: true };
  }
  if (a.marketoption !== undefined && a.marketoption !== "OnDemand") {
    return { skip: `marketoption ${a.marketoption}`, gpu: true };
  }
  const gpuCount = Number(a.gpu);
  if (!Number.isInteger(gpuCount) || gpuCount < 1 || gpuCount > 64) {
    return { skip: "no GPU count (attribute gpu)", gpu: true };
  }
  const region = a.regionCode ?? "";
  if (!/^[a-z0-9-]+$/.test(region)) return { skip: "no regionCode", gpu: true };
  return { instanceType, region, spec, gpuCount };
}

/** One priced dimension of a term, as both flavours give it. */
export interface AwsTerm {
  termType: "OnDemand" | "Reserved";
  unit: string;
  /** the USD price text; null when the term is priced in another currency only */
  usd: string | null;
  otherCurrency: string | null;
  effectiveDate: string;
  leaseContractLength?: string;
  offeringClass?: string;
  purchaseOption?: string;
  offerTermCode?: string;
}

/** Which terms become rows: on-demand hourly, and the 1-year standard No Upfront reservation. */
export function termModel(t: AwsTerm): { model: PricingModel; note: string | null } | string {
  if (t.unit !== "Hrs") return "term dimension not hourly (upfront fee)";
  if (t.termType === "OnDemand") return { model: "on_demand", note: null };
  const std = t.offeringClass?.toLowerCase() === "standard";
  if (t.leaseContractLength === "1yr" && std && t.purchaseOption === "No Upfront") {
    return {
      model: "reserved",
      note: `1-year Standard Reserved Instance, No Upfront: its hourly rate${t.offerTermCode ? ` (AWS offer term ${t.offerTermCode})` : ""}`,
    };
  }
  return "reserved term other than 1-year standard No Upfront";
}

/** "2026-09-01T00:00:00Z" or "2025-09-12" as a Date, else a format error. */
export function awsDate(file: string, where: string, text: string): Date {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(d.getTime())) {
    throw new ImportFormatError(file, where, `not a date: ${JSON.stringify(text)}`);
  }
  return d;
}

export interface AwsSource {
  source: string;
  sourceDate: string;
}

/** The row for a kept product's priced term; null (with the reason counted) when it is free. */
export function awsRow(
  file: string,
  where: string,
  kept: KeptProduct,
  term: AwsTerm,
  model: { model: PricingModel; note: string | null },
  src: AwsSource,
): ImportRow | string {
  if (term.usd === null) {
    if (term.otherCurrency === "CNY") {
      throw new ImportFormatError(
        file,
        where,
        "prices in CNY (AWS China regions): CNY needs the exchange-rate support still to come; import USD price lists only",
      );
    }
    throw new ImportFormatError(file, where, "no USD price (pricePerUnit.USD is missing)");
  }
  const price = decimalToMicros(term.usd);
  if (!price) {
    throw new ImportFormatError(file, where, `price is not a number: ${JSON.stringify(term.usd)}`);
  }
  if (price.micros === 0n) return "zero price (free tier or capacity block)";
  const notes = [model.note, price.rounded].filter((n): n is string => n !== null);
  return {
    provider: "aws",
    instanceType: kept.instanceType,
    region: kept.region,
    pricingModel: model.model,
    gpuModel: kept.spec.gpuModel,
    gpuCount: kept.gpuCount,
    gpuMemoryBytes: BigInt(kept.spec.gpuMemoryGiB) * GIB,
    usdPerHourMicros: price.micros,
    currency: "USD",
    effectiveFrom: awsDate(file, where, term.effectiveDate),
    source: src.source,
    sourceDate: src.sourceDate,
    note: notes.length > 0 ? notes.join("; ") : null,
    where,
    file,
  };
}

/** "AmazonEC2 offer file version 20260910195514 (published 2026-09-10T19:55:14Z)". */
export function awsSource(version: string, publicationDate: string, url?: string): AwsSource {
  const sourceDate = /^\d{4}-\d{2}-\d{2}/.test(publicationDate) ? publicationDate.slice(0, 10) : "";
  const where =
    url ?? `https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/${version}/`;
  return {
    source:
      `AWS Price List, AmazonEC2 offer file version ${version} (published ${publicationDate}), ${where}`.slice(
        0,
        500,
      ),
    sourceDate,
  };
}
