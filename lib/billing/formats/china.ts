import { findGpuInstanceType } from "../gpu-types.ts";
import type { BilledPricing, RowResult } from "../types.ts";
import { amount, text, time } from "./cells.ts";

// Alibaba Cloud and Tencent Cloud bill-detail CSVs (the consoles' consumption detail exports).
// Column names: see lib/billing/fixtures/README.md for the pages they come from and what was
// assumed. Times without an offset are the consoles' Beijing time (UTC+8).

const BEIJING = "+08:00";

export const ALIBABA_REQUIRED = [
  "InstanceID",
  "ProductCode",
  "UsageStartTime",
  "UsageEndTime",
  "PretaxAmount",
  "Currency",
] as const;

export function mapAlibaba(rec: Map<string, unknown>): RowResult {
  const item = text(rec, "Item");
  if (item && !/^(PayAsYouGoBill|SubscriptionOrder|Refund|Adjustment)$/.test(item)) {
    return { skip: `bill item ${item}` };
  }
  if (text(rec, "ProductCode").toLowerCase() !== "ecs") return { skip: "not compute" };
  const resourceId = text(rec, "InstanceID");
  if (!resourceId) return { skip: "no resource id" };
  const instanceType = findGpuInstanceType("alibaba", [
    text(rec, "InstanceSpec"),
    text(rec, "InstanceConfig"),
  ]);
  if (!instanceType) return { skip: "not a GPU instance" };
  const start = time(rec, "UsageStartTime", BEIJING);
  const end = time(rec, "UsageEndTime", BEIJING);
  if (!start || !end) return { skip: "no usage period" };
  const config = `${text(rec, "InstanceConfig")} ${text(rec, "BillingType")}`;
  const pricingModel: BilledPricing = /spot|preemptible/i.test(config)
    ? "spot"
    : text(rec, "SubscriptionType") === "Subscription"
      ? "reserved"
      : "on_demand";
  const paid = amount(rec, "PretaxAmount") ?? 0n;
  return {
    row: {
      provider: "alibaba",
      account: text(rec, "OwnerID", "AccountID"),
      resourceId,
      instanceType,
      region: text(rec, "Region"),
      start,
      end,
      chargeCategory: item === "Refund" ? "Credit" : item === "Adjustment" ? "Adjustment" : "Usage",
      pricingModel,
      billed: paid,
      effective: paid,
      list: amount(rec, "PretaxGrossAmount"),
      currency: text(rec, "Currency").toUpperCase(),
    },
  };
}

export const TENCENT_REQUIRED = [
  "Instance ID",
  "Product Name",
  "Usage Start Time",
  "Usage End Time",
  "Total Amount After Discount (Excluding Tax)",
] as const;

export function mapTencent(rec: Map<string, unknown>): RowResult {
  if (
    !/\bCVM\b|Cloud Virtual Machine|GPU/i.test(
      `${text(rec, "Product Name")} ${text(rec, "Subproduct Name")}`,
    )
  ) {
    return { skip: "not compute" };
  }
  const resourceId = text(rec, "Instance ID");
  if (!resourceId) return { skip: "no resource id" };
  const instanceType = findGpuInstanceType("tencent", [
    text(rec, "Configuration Description"),
    text(rec, "Component Name"),
    text(rec, "Subproduct Name"),
  ]);
  if (!instanceType) return { skip: "not a GPU instance" };
  const start = time(rec, "Usage Start Time", BEIJING);
  const end = time(rec, "Usage End Time", BEIJING);
  if (!start || !end) return { skip: "no usage period" };
  const kind = `${text(rec, "Instance Type")} ${text(rec, "Billing Mode")}`;
  const pricingModel: BilledPricing = /spot/i.test(kind)
    ? "spot"
    : /\bSP\b|savings/i.test(kind)
      ? "savings_plan"
      : /\bRI\b|reserved|subscription/i.test(kind)
        ? "reserved"
        : "on_demand";
  const billed = amount(rec, "Total Amount After Discount (Excluding Tax)") ?? 0n;
  const refund = /refund/i.test(text(rec, "Transaction Type"));
  return {
    row: {
      provider: "tencent",
      account: text(rec, "Owner Account ID", "Payer Account ID"),
      resourceId,
      instanceType,
      region: text(rec, "Region Code", "Region"),
      start,
      end,
      chargeCategory: refund ? "Credit" : "Usage",
      pricingModel,
      billed,
      effective: amount(rec, "Amount Before Tax") ?? billed,
      list: amount(rec, "Original Cost"),
      currency: (text(rec, "Currency") || "USD").toUpperCase(),
    },
  };
}
