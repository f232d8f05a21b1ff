import { findGpuInstanceType, gcpGpuSku } from "../gpu-types.ts";
import type { BilledPricing, BillProvider, RowResult } from "../types.ts";
import { amount, text, time } from "./cells.ts";

// FOCUS 1.0–1.2 exports (AWS Data Exports, Azure Cost Management, Google Cloud's billing export):
// column names and values from the specification (lib/focus/spec/focus-1.2-columns.json, checked
// by formats.test.ts). Of the AWS extension columns, x_UsageType carries the instance type.

export const FOCUS_REQUIRED = [
  "BilledCost",
  "EffectiveCost",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ChargeCategory",
  "ServiceCategory",
  "ResourceId",
  "BillingCurrency",
] as const;

/** Where the instance type may be written, most specific first. */
const TYPE_COLUMNS = [
  "x_UsageType",
  "SkuPriceDetails",
  "SkuMeter",
  "ChargeDescription",
  "x_SkuMeterName",
  "x_SkuDescription",
  "ResourceName",
];

export function focusProvider(name: string): BillProvider | null {
  if (/amazon|\baws\b/i.test(name)) return "aws";
  if (/microsoft|azure/i.test(name)) return "azure";
  if (/google|\bgcp\b/i.test(name)) return "gcp";
  if (/alibaba|aliyun/i.test(name)) return "alibaba";
  if (/tencent/i.test(name)) return "tencent";
  return null;
}

function pricing(rec: Map<string, unknown>, texts: readonly string[]): BilledPricing {
  if (text(rec, "CommitmentDiscountId")) {
    const kind = `${text(rec, "CommitmentDiscountType")} ${text(rec, "CommitmentDiscountId")}`;
    if (/savings/i.test(kind)) return "savings_plan";
    if (/reserv/i.test(kind)) return "reserved";
    return "commitment";
  }
  if (text(rec, "PricingCategory").toLowerCase() === "dynamic") return "spot";
  if (texts.some((t) => /spot/i.test(t))) return "spot";
  return "on_demand";
}

export function mapFocus(rec: Map<string, unknown>): RowResult {
  const category = text(rec, "ChargeCategory");
  if (category === "Tax") return { skip: "tax" };
  if (category === "Purchase") return { skip: "commitment or upfront purchase (no instance hour)" };
  if (category !== "Usage" && category !== "Credit" && category !== "Adjustment") {
    return { skip: `charge category ${category || "(empty)"}` };
  }
  if (category === "Usage" && text(rec, "ServiceCategory") !== "Compute") {
    return { skip: "not compute" };
  }
  const providerName = text(rec, "ProviderName", "ServiceProviderName", "InvoiceIssuerName");
  const provider = focusProvider(providerName);
  if (!provider) return { skip: `provider ${providerName || "(empty)"} not supported` };
  const resourceId = text(rec, "ResourceId");
  if (!resourceId) return { skip: "no resource id" };
  const texts = TYPE_COLUMNS.map((c) => text(rec, c));
  let instanceType = findGpuInstanceType(provider, texts);
  if (!instanceType && provider === "gcp" && gcpGpuSku(texts)) instanceType = "gpu-sku";
  if (!instanceType) return { skip: "not a GPU instance" };
  const start = time(rec, "ChargePeriodStart");
  const end = time(rec, "ChargePeriodEnd");
  if (!start || !end) return { skip: "no charge period" };
  return {
    row: {
      provider,
      account: text(rec, "SubAccountId", "BillingAccountId"),
      resourceId,
      instanceType,
      region: text(rec, "RegionId", "Region", "RegionName"),
      start,
      end,
      chargeCategory: category,
      pricingModel: pricing(rec, texts),
      billed: amount(rec, "BilledCost") ?? 0n,
      effective: amount(rec, "EffectiveCost") ?? 0n,
      list: amount(rec, "ListCost"),
      currency: text(rec, "BillingCurrency") || "USD",
    },
  };
}
