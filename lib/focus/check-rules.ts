import { toRational, type Cell, type Rational } from "./check-values.ts";
import type { IssueList } from "./issue-list.ts";
import { FOCUS_SPEC } from "./spec.ts";

// The FOCUS 1.2 MUST rules that tie columns together (nullability that depends on ChargeCategory,
// columns that are null exactly when another is, unit price × quantity = cost, ...). A rule runs
// only where the columns it names are in the table: a Conditional column may be absent.

type Row = Record<string, Cell>;

const isNull = (v: Cell | undefined) => v === null || v === undefined || v === "";

/** Columns that must have a value on Usage and Purchase rows (not corrections) and none on Tax. */
const PRICED = [
  "PricingCategory",
  "PricingQuantity",
  "SkuId",
  "SkuPriceId",
  "ListUnitPrice",
  "ContractedUnitPrice",
];

/** [a, b]: a is null exactly when b is. */
const PAIRED: [string, string][] = [
  ["PricingUnit", "PricingQuantity"],
  ["ConsumedUnit", "ConsumedQuantity"],
  ["CommitmentDiscountUnit", "CommitmentDiscountQuantity"],
  ["RegionName", "RegionId"],
  ["ResourceType", "ResourceId"],
  ["CommitmentDiscountCategory", "CommitmentDiscountId"],
  ["CommitmentDiscountType", "CommitmentDiscountId"],
];

/** [a, b]: a must be null when b is. */
const NULL_WITH: [string, string][] = [
  ["ResourceName", "ResourceId"],
  ["SkuMeter", "SkuId"],
  ["SkuPriceDetails", "SkuPriceId"],
  ["CommitmentDiscountStatus", "CommitmentDiscountId"],
  ["CommitmentDiscountName", "CommitmentDiscountId"],
];

const SUBCATEGORY_PARENT = new Map(
  (FOCUS_SPEC.columns.find((c) => c.columnId === "ServiceSubcategory")?.allowedValues ?? []).map(
    (a) => [a.value, a.parent ?? ""],
  ),
);

function instant(v: Cell | undefined): number | null {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "string") {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

function mul(a: Rational, b: Rational): Rational {
  return { n: a.n * b.n, scale: a.scale + b.scale };
}

/** |a - b| as a number (both exact until this last step). */
function distance(a: Rational, b: Rational): number {
  const scale = Math.max(a.scale, b.scale);
  const up = (r: Rational) => r.n * 10n ** BigInt(scale - r.scale);
  const d = up(a) - up(b);
  return Number(d < 0n ? -d : d) / 10 ** scale;
}

/**
 * unit price × quantity = cost, within what honest rounding explains: half a micro-unit for each
 * hour of the charge period summed into the row, one more for the cost itself, and the quantity's
 * own rounding at 9 decimals (hours are seconds ÷ 3600, which rarely terminates).
 */
function productIssue(row: Row, price: string, cost: string, periodHours: number): boolean {
  const p = toRational(row[price] ?? null);
  const q = toRational(row.PricingQuantity ?? null);
  const c = toRational(row[cost] ?? null);
  if (!p || !q || !c) return false;
  const tolerance = 1e-6 * (0.5 * periodHours + 1) + Math.abs(Number(p.n) / 10 ** p.scale) * 1e-9;
  return distance(mul(p, q), c) > tolerance;
}

export function crossColumnIssues(
  rows: readonly Row[],
  present: ReadonlySet<string>,
  issues: IssueList,
): void {
  const has = (...cols: string[]) => cols.every((c) => present.has(c));
  rows.forEach((row, i) => {
    const category = row.ChargeCategory;
    const correction = row.ChargeClass === "Correction";
    const billable = (category === "Usage" || category === "Purchase") && !correction;
    for (const col of PRICED.filter((c) => has(c, "ChargeCategory"))) {
      if (billable && isNull(row[col])) {
        issues.add("usage-not-null", col, `null on a ${String(category)} row`, i);
      }
      if (category === "Tax" && !isNull(row[col]))
        issues.add("tax-null", col, "set on a Tax row", i);
    }
    for (const [a, b] of PAIRED.filter(([a, b]) => has(a, b))) {
      if (isNull(row[a]) !== isNull(row[b])) {
        issues.add("null-pair", a, `must be null exactly when ${b} is`, i);
      }
    }
    for (const [a, b] of NULL_WITH.filter(([a, b]) => has(a, b))) {
      if (isNull(row[b]) && !isNull(row[a]))
        issues.add("null-with", a, `set while ${b} is null`, i);
    }
    const commitment = !isNull(row.CommitmentDiscountId);
    if (
      has("CommitmentDiscountStatus", "CommitmentDiscountId") &&
      commitment &&
      category === "Usage"
    ) {
      if (isNull(row.CommitmentDiscountStatus)) {
        issues.add("commitment", "CommitmentDiscountStatus", "null on a commitment's Usage row", i);
      }
    }
    if (has("CommitmentDiscountQuantity", "CommitmentDiscountId")) {
      const needed = commitment && billable;
      if (needed && isNull(row.CommitmentDiscountQuantity)) {
        issues.add("commitment", "CommitmentDiscountQuantity", "null on a commitment's row", i);
      }
      if (!commitment && !isNull(row.CommitmentDiscountQuantity)) {
        issues.add("commitment", "CommitmentDiscountQuantity", "set without a commitment", i);
      }
    }
    if (has("ConsumedQuantity", "ChargeCategory")) {
      const unused = row.CommitmentDiscountStatus === "Unused";
      const consumed = !isNull(row.ConsumedQuantity);
      if ((category !== "Usage" || unused) && consumed) {
        issues.add("consumed", "ConsumedQuantity", "set on a row that is not consumed usage", i);
      }
      if (category === "Usage" && !unused && !correction && !consumed) {
        issues.add("consumed", "ConsumedQuantity", "null on a Usage row", i);
      }
    }
    const sub = row.ServiceSubcategory;
    if (has("ServiceSubcategory", "ServiceCategory") && typeof sub === "string") {
      const parent = SUBCATEGORY_PARENT.get(sub);
      if (parent !== undefined && parent !== row.ServiceCategory) {
        issues.add("subcategory-parent", "ServiceSubcategory", `"${sub}" belongs to ${parent}`, i);
      }
    }
    for (const p of ["BillingPeriod", "ChargePeriod"]) {
      const start = instant(row[`${p}Start`]);
      const end = instant(row[`${p}End`]);
      if (start !== null && end !== null && !(start < end)) {
        issues.add("period-order", `${p}End`, `${p}End is not after ${p}Start`, i);
      }
    }
    for (const col of ["ListUnitPrice", "ContractedUnitPrice"].filter((c) => has(c))) {
      const r = toRational(row[col] ?? null);
      if (r && r.n < 0n) issues.add("non-negative", col, "negative unit price", i);
    }
    const start = instant(row.ChargePeriodStart);
    const end = instant(row.ChargePeriodEnd);
    const periodHours = start !== null && end !== null ? Math.max(1, (end - start) / 3_600_000) : 1;
    for (const [price, cost] of [
      ["ListUnitPrice", "ListCost"],
      ["ContractedUnitPrice", "ContractedCost"],
    ] as const) {
      if (
        !correction &&
        has(price, cost, "PricingQuantity") &&
        productIssue(row, price, cost, periodHours)
      ) {
        issues.add(
          "price-times-quantity",
          cost,
          `${price} × PricingQuantity does not match ${cost}`,
          i,
        );
      }
    }
    if (category === "Purchase" && row.ChargeFrequency === "Usage-Based") {
      issues.add("frequency", "ChargeFrequency", "Usage-Based on a Purchase row", i);
    }
    for (const col of ["BillingCurrency", "PricingCurrency"].filter((c) => has(c))) {
      const v = row[col];
      if (typeof v === "string" && !/^[A-Z]{3}$/.test(v)) {
        issues.add("currency", col, `"${v}" is not an ISO 4217 code`, i);
      }
    }
  });
}
