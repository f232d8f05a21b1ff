import { mulDivRound } from "@/lib/core/money.ts";
import type { FocusRow, KeyValue } from "./columns.ts";
import {
  DAY_MS,
  HOUR_MS,
  hoursNano,
  pricingCategory,
  utcMonth,
  type Category,
  type Charge,
  type FocusContext,
  type Granularity,
  type HostFacts,
  type LedgerHour,
} from "./charge.ts";
import { providerKey, providerNames } from "./providers.ts";

// One charge (a host's hours in one charge period, at one SKU price) as a FOCUS row; the cost
// rules are in rows.ts.

const MODEL_LABEL: Record<Category, string | null> = {
  Standard: "on-demand",
  Dynamic: "spot",
  Committed: "reserved",
  Other: null,
};

function knownRegion(region: string): string | null {
  const r = region.trim();
  return r === "" || r.toLowerCase() === "unknown" ? null : r;
}

function tags(h: LedgerHour, host: HostFacts): KeyValue {
  // the hour's attribution wins over a label of the same name: it is what the cost was booked to
  return {
    ...host.labels,
    team: h.team,
    project: h.project,
    ...(host.owner ? { owner: host.owner } : {}),
  };
}

/** Rows of one host share their Tags and SkuPriceDetails objects (written once per file chunk). */
export type Shared = Map<string, KeyValue>;

function shared(memo: Shared, key: string, make: () => KeyValue): KeyValue {
  let v = memo.get(key);
  if (!v) {
    v = make();
    memo.set(key, v);
  }
  return v;
}

export function toRow(c: Charge, g: Granularity, ctx: FocusContext, memo: Shared): FocusRow {
  const h = c.hour;
  const host = ctx.hosts.get(h.hostId) ?? { hostname: h.hostId, owner: null, labels: {} };
  const names = providerNames(h.provider);
  const category = pricingCategory(h.pricingModel);
  const committed = category === "Committed";
  const region = knownRegion(h.region);
  const quantity = hoursNano(c.upSeconds);
  const unitPrice = c.listPrice ?? mulDivRound(c.listMicros, 3600n, BigInt(c.upSeconds));
  const start = new Date(c.periodStart);
  const month = utcMonth(start);
  const label = MODEL_LABEL[category] ?? h.pricingModel;
  const gpus = ctx.catalogueGpuCount(h.provider, h.instanceType);
  return {
    AvailabilityZone: host.labels.zone || null,
    BilledCost: committed ? 0n : c.costMicros,
    BillingAccountId:
      host.labels.billing_account_id || `gpufleet:${providerKey(h.provider) || "unknown"}`,
    BillingAccountName: host.labels.billing_account_name || null,
    BillingCurrency: h.currency,
    BillingPeriodEnd: month.end,
    BillingPeriodStart: month.start,
    ChargeCategory: "Usage",
    ChargeClass: null,
    ChargeDescription: `${h.instanceType} ${label} instance hours${region ? ` in ${region}` : ""}`,
    ChargeFrequency: "Usage-Based",
    ChargePeriodEnd: new Date(c.periodStart + (g === "hourly" ? HOUR_MS : DAY_MS)),
    ChargePeriodStart: start,
    CommitmentDiscountCategory: committed ? "Usage" : null,
    CommitmentDiscountId: committed
      ? `gpufleet:reserved:${providerKey(h.provider)}:${h.region}:${h.instanceType}`
      : null,
    CommitmentDiscountName: null,
    CommitmentDiscountQuantity: committed ? quantity : null,
    CommitmentDiscountStatus: committed ? "Used" : null,
    CommitmentDiscountType: committed ? "Reserved" : null,
    CommitmentDiscountUnit: committed ? "Hours" : null,
    ConsumedQuantity: quantity,
    ConsumedUnit: "Hours",
    ContractedCost: c.listMicros,
    ContractedUnitPrice: unitPrice,
    EffectiveCost: c.costMicros,
    InvoiceIssuerName: names.invoiceIssuerName,
    ListCost: c.listMicros,
    ListUnitPrice: unitPrice,
    PricingCategory: category,
    PricingQuantity: quantity,
    PricingUnit: "Hours",
    ProviderName: names.providerName,
    PublisherName: names.publisherName,
    RegionId: region,
    RegionName: region,
    ResourceId: host.labels.instance_id || host.hostname,
    ResourceName: host.hostname,
    ResourceType: names.resourceType,
    ServiceCategory: "Compute",
    ServiceName: names.serviceName,
    ServiceSubcategory: names.serviceSubcategory,
    SkuId: h.instanceType,
    SkuMeter: "Compute Usage",
    SkuPriceDetails: shared(memo, `sku\u0000${h.provider}\u0000${h.instanceType}`, () => ({
      InstanceType: h.instanceType,
      ...(gpus === null ? {} : { GpuCount: gpus }),
    })),
    SkuPriceId: `${h.instanceType}:${h.region}:${h.pricingModel}`,
    Tags: shared(memo, `tags\u0000${h.hostId}\u0000${h.team}\u0000${h.project}`, () =>
      tags(h, host),
    ),
    x_GpuModel: c.gpuModel,
    x_GpuCount: c.gpuCount,
    x_GpuHours: hoursNano(c.gpuSeconds),
    x_IdleCost: c.idleMicros,
    x_MeanUtilization: c.utilWeight > 0 ? Math.round((c.utilSum / c.utilWeight) * 1e4) / 1e4 : null,
    x_HostId: h.hostId,
    x_PricingModel: h.pricingModel,
    x_ListPriceSource: c.listPrice === null ? "ledger" : "on_demand_catalogue",
    x_CostSource: c.actual ? "bill" : "list_estimate",
  };
}
