import { InvalidInputError } from "../core/errors.ts";

// What a bill's row becomes before it is split into hours, whatever the export format.

export const BILL_FORMATS = ["focus", "cur2", "alibaba", "tencent"] as const;
export type BillFormat = (typeof BILL_FORMATS)[number];

export const BILL_PROVIDERS = ["aws", "azure", "gcp", "alibaba", "tencent"] as const;
export type BillProvider = (typeof BILL_PROVIDERS)[number];

/** on_demand | spot | savings_plan | reserved | commitment (another provider's commitment) */
export type BilledPricing = "on_demand" | "spot" | "savings_plan" | "reserved" | "commitment";

export interface BillRow {
  provider: BillProvider;
  account: string;
  resourceId: string;
  instanceType: string;
  region: string;
  start: Date;
  end: Date;
  /** Usage | Credit | Adjustment (FOCUS ChargeCategory values; refunds are credits) */
  chargeCategory: "Usage" | "Credit" | "Adjustment";
  pricingModel: BilledPricing;
  /** amounts in 1e-12 of `currency` (see amount.ts) */
  billed: bigint;
  effective: bigint;
  list: bigint | null;
  currency: string;
}

export type RowResult = { row: BillRow } | { skip: string };

/** A record as read from CSV (strings) or Parquet (strings, numbers, dates, bigints). */
export type RawRecord = Record<string, unknown>;

/** A file that is not a bill this reads, or a row that cannot be read (answered 400). */
export class BillFormatError extends InvalidInputError {
  constructor(message: string) {
    super(message, []);
    this.name = "BillFormatError";
  }
}
