import { ByteWriter, parquetWrite } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { checkFocusTable, tableFromCsv, tableFromParquet, type FocusTable } from "./check.ts";
import { parseRational, valueProblem } from "./check-values.ts";
import { focusCsvChunk } from "./csv.ts";
import { buildFocusRows, type FocusContext, type LedgerHour } from "./rows.ts";

// The checker must catch what FOCUS forbids, not only pass what gpufleet writes: each test breaks
// one rule in an otherwise valid table and expects that rule, on that column, and nothing else.

const ctx: FocusContext = {
  hosts: new Map([["h1", { hostname: "gpu-1", owner: null, labels: { instance_id: "i-1" } }]]),
  onDemandPrice: () => 10_000_000n,
  catalogueGpuCount: () => 1,
};

const hour = (over: Partial<LedgerHour> = {}): LedgerHour => ({
  hostId: "h1",
  hourStart: new Date("2026-11-01T00:00:00Z"),
  provider: "aws",
  instanceType: "g5.xlarge",
  region: "us-east-1",
  pricingModel: "spot",
  team: "a",
  project: "p",
  currency: "USD",
  upSeconds: 3600,
  costMicros: 4_000_000n,
  idleCostMicros: 0n,
  gpuModel: "A10G",
  utilMean: 0.5,
  gpuCount: 1,
  gpuSeconds: 3600,
  ...over,
});

function validTable(): FocusTable {
  const rows = buildFocusRows([hour(), hour({ pricingModel: "reserved" })], ctx, "hourly");
  return tableFromCsv(focusCsvChunk(rows, true));
}

function issuesAfter(change: (t: FocusTable) => void) {
  const t = validTable();
  change(t);
  return checkFocusTable(t).map((i) => `${i.column} ${i.rule}`);
}

const set = (col: string, value: string | null) => (t: FocusTable) => {
  for (const r of t.rows) r[col] = value;
};

describe("checkFocusTable", () => {
  it("passes a valid table", () => {
    expect(checkFocusTable(validTable())).toEqual([]);
  });

  it("finds a missing Mandatory column and an unknown one without x_", () => {
    const issues = issuesAfter((t) => {
      t.columns = t.columns.filter((c) => c !== "BilledCost").concat("GpuModel");
    });
    expect(issues).toEqual(["BilledCost mandatory-present", "GpuModel custom-prefix"]);
  });

  it("finds values that break the spec's formats", () => {
    expect(issuesAfter(set("BilledCost", "1,000.00"))).toEqual(["BilledCost value-format"]);
    expect(issuesAfter(set("ListCost", "+4"))).toContain("ListCost value-format");
    expect(issuesAfter(set("ChargePeriodStart", "2026-11-01 00:00:00"))).toEqual([
      "ChargePeriodStart value-format",
    ]);
    expect(issuesAfter(set("ChargePeriodEnd", "2026-11-31T00:00:00Z"))).toEqual([
      "ChargePeriodEnd value-format",
    ]);
    expect(issuesAfter(set("Tags", '{"a":{"b":1}}'))).toEqual(["Tags value-format"]);
    expect(issuesAfter(set("Tags", "[1,2]"))).toEqual(["Tags value-format"]);
    expect(issuesAfter(set("SkuPriceDetails", "{oops"))).toEqual(["SkuPriceDetails value-format"]);
  });

  it("finds nulls where the spec allows none, and values it does not allow", () => {
    expect(issuesAfter(set("BillingCurrency", null))).toEqual(["BillingCurrency not-null"]);
    expect(issuesAfter(set("PricingCategory", "Spot"))).toEqual(["PricingCategory allowed-values"]);
    expect(issuesAfter(set("ChargeClass", "Refund"))).toEqual(["ChargeClass allowed-values"]);
    expect(issuesAfter(set("ServiceCategory", "GPU"))).toEqual([
      "ServiceCategory allowed-values",
      "ServiceSubcategory subcategory-parent",
    ]);
    expect(issuesAfter(set("BillingCurrency", "usd"))).toEqual(["BillingCurrency currency"]);
  });

  it("applies the rules between columns", () => {
    expect(issuesAfter(set("ServiceSubcategory", "Object Storage"))).toEqual([
      "ServiceSubcategory subcategory-parent",
    ]);
    expect(issuesAfter(set("PricingCategory", null))).toEqual(["PricingCategory usage-not-null"]);
    expect(issuesAfter(set("PricingUnit", null))).toEqual(["PricingUnit null-pair"]);
    expect(issuesAfter(set("RegionId", null))).toEqual(["RegionName null-pair"]);
    expect(issuesAfter(set("ListCost", "10.000002"))).toEqual(["ListCost price-times-quantity"]);
    expect(issuesAfter(set("ContractedUnitPrice", "-1"))).toEqual([
      "ContractedUnitPrice non-negative",
      "ContractedCost price-times-quantity",
    ]);
    expect(
      issuesAfter((t) => {
        for (const r of t.rows) r.ChargePeriodEnd = r.ChargePeriodStart ?? null;
      }),
    ).toEqual(["ChargePeriodEnd period-order"]);
    expect(
      issuesAfter((t) => {
        const reserved = t.rows.find((r) => r.PricingCategory === "Committed");
        if (reserved) reserved.CommitmentDiscountStatus = null;
      }),
    ).toEqual(["CommitmentDiscountStatus commitment"]);
    expect(issuesAfter(set("ConsumedQuantity", null))).toEqual([
      "ConsumedUnit null-pair",
      "ConsumedQuantity consumed",
    ]);
  });

  it("counts the rows that break a rule and names the first ones", () => {
    const t = validTable();
    t.rows = [...t.rows, ...t.rows, ...t.rows, ...t.rows];
    for (const r of t.rows) r.BilledCost = "x";
    const [issue] = checkFocusTable(t);
    expect(issue).toMatchObject({ column: "BilledCost", count: 8, rows: [0, 1, 2, 3, 4] });
  });

  it("checks Parquet column types against the spec's data types", async () => {
    const writer = new ByteWriter();
    const base = validTable();
    const keep = base.columns.filter((c) => !["BilledCost", "ChargePeriodStart"].includes(c));
    parquetWrite({
      writer,
      columnData: [
        ...keep.map((name) => ({
          name,
          data: base.rows.map((r) => r[name] ?? null),
          type: "STRING" as const,
        })),
        // a cost as text and a time as a plain number: the columns exist, their types are wrong
        { name: "BilledCost", data: ["1.5", "2"], type: "STRING" as const },
        { name: "ChargePeriodStart", data: [1, 2], type: "INT32" as const },
      ],
    });
    const table = await tableFromParquet(writer.getBuffer());
    const issues = checkFocusTable(table).filter((i) => i.rule === "column-type");
    expect(issues.map((i) => i.column).sort()).toEqual(
      // every Decimal and Date/Time column written as STRING is caught, and the two above
      [
        "BilledCost",
        "BillingPeriodEnd",
        "BillingPeriodStart",
        "ChargePeriodEnd",
        "ChargePeriodStart",
        "CommitmentDiscountQuantity",
        "ConsumedQuantity",
        "ContractedCost",
        "ContractedUnitPrice",
        "EffectiveCost",
        "ListCost",
        "ListUnitPrice",
        "PricingQuantity",
      ].sort(),
    );
  });
});

describe("value formats", () => {
  it("reads FOCUS numbers exactly, E notation included", () => {
    expect(parseRational("35.2E-7")).toEqual({ n: 352n, scale: 8 });
    expect(parseRational("-100.2")).toEqual({ n: -1002n, scale: 1 });
    expect(parseRational("4")).toEqual({ n: 4n, scale: 0 });
    for (const bad of ["1 1/2", "35.2E+7", "$32", "3,432,342", "+333", "32 GiB", ""]) {
      expect(parseRational(bad), bad).toBeNull();
    }
    expect(parseRational("1e-7", true)).toEqual({ n: 1n, scale: 7 });
  });

  it("tells what is wrong with a value", () => {
    expect(valueProblem("Decimal", Number.NaN)).toMatch(/finite/);
    expect(valueProblem("String", "   ")).toMatch(/empty/);
    expect(valueProblem("Date/Time", new Date("2026-11-01T00:00:00Z"))).toBeNull();
    expect(valueProblem("Date/Time", "2026-11-01T00:00:00.000Z")).toMatch(/YYYY/);
    expect(valueProblem("JSON", { a: 1, b: "x", c: null, d: true })).toBeNull();
    expect(valueProblem("Integer", "1.5")).toMatch(/integer/);
  });
});
