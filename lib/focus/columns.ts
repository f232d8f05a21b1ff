// The columns of gpufleet's FOCUS 1.2 export, in file order: the FOCUS columns alphabetically,
// then gpufleet's own `x_` columns (FOCUS "Column Handling": custom columns after all FOCUS ones).
// The kind decides the CSV text and the Parquet type; both writers read this one list.

/**
 * money: exact decimal with 6 places, held as integer micro-units (bigint);
 * quantity: exact decimal with 9 places, held as integer nano-units (bigint), for hours;
 * datetime: a UTC instant; json: a flat key-value object (FOCUS KeyValueFormat).
 */
export type ColumnKind =
  "string" | "datetime" | "money" | "quantity" | "json" | "integer" | "double";

export const KIND_SCALE = { money: 6, quantity: 9 } as const;

export type JsonScalar = string | number | boolean | null;
export type KeyValue = Record<string, JsonScalar>;

export interface FocusRow {
  AvailabilityZone: string | null;
  BilledCost: bigint;
  BillingAccountId: string;
  BillingAccountName: string | null;
  BillingCurrency: string;
  BillingPeriodEnd: Date;
  BillingPeriodStart: Date;
  ChargeCategory: "Usage";
  ChargeClass: null;
  ChargeDescription: string;
  ChargeFrequency: "Usage-Based";
  ChargePeriodEnd: Date;
  ChargePeriodStart: Date;
  CommitmentDiscountCategory: "Usage" | null;
  CommitmentDiscountId: string | null;
  CommitmentDiscountName: string | null;
  CommitmentDiscountQuantity: bigint | null;
  CommitmentDiscountStatus: "Used" | null;
  CommitmentDiscountType: string | null;
  CommitmentDiscountUnit: string | null;
  ConsumedQuantity: bigint;
  ConsumedUnit: string;
  ContractedCost: bigint;
  ContractedUnitPrice: bigint;
  EffectiveCost: bigint;
  InvoiceIssuerName: string;
  ListCost: bigint;
  ListUnitPrice: bigint;
  PricingCategory: "Standard" | "Dynamic" | "Committed" | "Other";
  PricingQuantity: bigint;
  PricingUnit: string;
  ProviderName: string;
  PublisherName: string;
  RegionId: string | null;
  RegionName: string | null;
  ResourceId: string;
  ResourceName: string;
  ResourceType: string;
  ServiceCategory: string;
  ServiceName: string;
  ServiceSubcategory: string;
  SkuId: string;
  SkuMeter: string;
  SkuPriceDetails: KeyValue;
  SkuPriceId: string;
  Tags: KeyValue;
  x_GpuModel: string | null;
  x_GpuCount: number;
  x_GpuHours: bigint;
  x_IdleCost: bigint;
  x_MeanUtilization: number | null;
  x_HostId: string;
  x_PricingModel: string;
  x_ListPriceSource: "ledger" | "on_demand_catalogue";
  /** bill: BilledCost/EffectiveCost are the imported bill's (actuals); list_estimate: the ledger's */
  x_CostSource: "bill" | "list_estimate";
}

export type ColumnName = keyof FocusRow;

export interface ColumnDef {
  name: ColumnName;
  kind: ColumnKind;
  /** whether the export may leave it empty (Parquet OPTIONAL vs REQUIRED) */
  nullable: boolean;
}

const c = (name: ColumnName, kind: ColumnKind, nullable = false): ColumnDef => ({
  name,
  kind,
  nullable,
});

export const FOCUS_COLUMNS: readonly ColumnDef[] = [
  c("AvailabilityZone", "string", true),
  c("BilledCost", "money"),
  c("BillingAccountId", "string"),
  c("BillingAccountName", "string", true),
  c("BillingCurrency", "string"),
  c("BillingPeriodEnd", "datetime"),
  c("BillingPeriodStart", "datetime"),
  c("ChargeCategory", "string"),
  c("ChargeClass", "string", true),
  c("ChargeDescription", "string"),
  c("ChargeFrequency", "string"),
  c("ChargePeriodEnd", "datetime"),
  c("ChargePeriodStart", "datetime"),
  c("CommitmentDiscountCategory", "string", true),
  c("CommitmentDiscountId", "string", true),
  c("CommitmentDiscountName", "string", true),
  c("CommitmentDiscountQuantity", "quantity", true),
  c("CommitmentDiscountStatus", "string", true),
  c("CommitmentDiscountType", "string", true),
  c("CommitmentDiscountUnit", "string", true),
  c("ConsumedQuantity", "quantity"),
  c("ConsumedUnit", "string"),
  c("ContractedCost", "money"),
  c("ContractedUnitPrice", "money"),
  c("EffectiveCost", "money"),
  c("InvoiceIssuerName", "string"),
  c("ListCost", "money"),
  c("ListUnitPrice", "money"),
  c("PricingCategory", "string"),
  c("PricingQuantity", "quantity"),
  c("PricingUnit", "string"),
  c("ProviderName", "string"),
  c("PublisherName", "string"),
  c("RegionId", "string", true),
  c("RegionName", "string", true),
  c("ResourceId", "string"),
  c("ResourceName", "string"),
  c("ResourceType", "string"),
  c("ServiceCategory", "string"),
  c("ServiceName", "string"),
  c("ServiceSubcategory", "string"),
  c("SkuId", "string"),
  c("SkuMeter", "string"),
  c("SkuPriceDetails", "json"),
  c("SkuPriceId", "string"),
  c("Tags", "json"),
  c("x_GpuModel", "string", true),
  c("x_GpuCount", "integer"),
  c("x_GpuHours", "quantity"),
  c("x_IdleCost", "money"),
  c("x_MeanUtilization", "double", true),
  c("x_HostId", "string"),
  c("x_PricingModel", "string"),
  c("x_ListPriceSource", "string"),
  c("x_CostSource", "string"),
];

export const COLUMN_NAMES: readonly ColumnName[] = FOCUS_COLUMNS.map((col) => col.name);

/** An exact decimal from an integer and its scale: (1234567n, 6) -> "1.234567". */
export function formatScaled(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  const cut = digits.length - scale;
  const body = scale === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  return negative ? `-${body}` : body;
}

/** FOCUS Date/Time: extended ISO 8601 in UTC with seconds and no fraction, "2026-11-01T00:00:00Z". */
export function formatDateTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}
