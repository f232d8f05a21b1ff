import { findGpuInstanceType } from "../gpu-types.ts";
import type { BilledPricing, RowResult } from "../types.ts";
import { amount, text, time } from "./cells.ts";

// AWS CUR 2.0 (Data Exports "Standard data export: CUR 2.0"): column names from AWS's data
// dictionary, https://docs.aws.amazon.com/cur/latest/userguide/table-dictionary-cur2.html (line
// item, pricing, product, reservation and savings plan columns). The legacy CUR's
// "lineItem/UsageType" spelling reads the same (cells.ts compares names without punctuation).

export const CUR2_REQUIRED = [
  "line_item_line_item_type",
  "line_item_product_code",
  "line_item_resource_id",
  "line_item_usage_start_date",
  "line_item_usage_end_date",
  "line_item_usage_type",
  "line_item_unblended_cost",
  "line_item_currency_code",
] as const;

/** Instance-hour usage types: "USE1-BoxUsage:p4d.24xlarge", "SpotUsage:g5.xlarge", … */
const INSTANCE_HOURS =
  /(?:^|[-:])(?:BoxUsage|SpotUsage|DedicatedUsage|HostBoxUsage|ReservedHostUsage)(?::|$)/;
const USAGE_TYPES = new Set([
  "Usage",
  "SavingsPlanCoveredUsage",
  "DiscountedUsage",
  "SavingsPlanNegation",
]);
const CREDIT_TYPES = new Set([
  "Credit",
  "Refund",
  "EdpDiscount",
  "PrivateRateDiscount",
  "BundledDiscount",
  "Discount",
]);

function effective(rec: Map<string, unknown>, type: string, unblended: bigint): bigint {
  if (type === "SavingsPlanCoveredUsage")
    return amount(rec, "savings_plan_savings_plan_effective_cost") ?? 0n;
  if (type === "DiscountedUsage") return amount(rec, "reservation_effective_cost") ?? 0n;
  if (type === "SavingsPlanNegation") return 0n; // the covered usage's effective cost stands
  return unblended;
}

function pricing(rec: Map<string, unknown>, type: string, usageType: string): BilledPricing {
  if (type === "SavingsPlanCoveredUsage" || type === "SavingsPlanNegation") return "savings_plan";
  if (type === "DiscountedUsage") return "reserved";
  if (text(rec, "pricing_term") === "Spot" || /SpotUsage/.test(usageType)) return "spot";
  return "on_demand";
}

export function mapCur2(rec: Map<string, unknown>): RowResult {
  const type = text(rec, "line_item_line_item_type");
  const credit = CREDIT_TYPES.has(type);
  if (!USAGE_TYPES.has(type) && !credit) return { skip: `line item type ${type || "(empty)"}` };
  if (text(rec, "line_item_product_code") !== "AmazonEC2") return { skip: "not compute" };
  const usageType = text(rec, "line_item_usage_type");
  if (!credit && !INSTANCE_HOURS.test(usageType))
    return { skip: "not compute (no instance hours)" };
  const resourceId = text(rec, "line_item_resource_id");
  if (!resourceId) return { skip: "no resource id" };
  const instanceType = findGpuInstanceType("aws", [text(rec, "product_instance_type"), usageType]);
  if (!instanceType) return { skip: "not a GPU instance" };
  const start = time(rec, "line_item_usage_start_date");
  const end = time(rec, "line_item_usage_end_date");
  if (!start || !end) return { skip: "no usage period" };
  const unblended = amount(rec, "line_item_unblended_cost") ?? 0n;
  const zone = text(rec, "line_item_availability_zone");
  return {
    row: {
      provider: "aws",
      account: text(rec, "line_item_usage_account_id", "bill_payer_account_id"),
      resourceId,
      instanceType,
      region: text(rec, "product_region_code") || zone.replace(/[a-z]$/, ""),
      start,
      end,
      chargeCategory: credit
        ? type === "Credit" || type === "Refund"
          ? "Credit"
          : "Adjustment"
        : "Usage",
      pricingModel: pricing(rec, type, usageType),
      billed: unblended,
      effective: effective(rec, type, unblended),
      list: amount(rec, "pricing_public_on_demand_cost"),
      currency: text(rec, "line_item_currency_code") || "USD",
    },
  };
}
