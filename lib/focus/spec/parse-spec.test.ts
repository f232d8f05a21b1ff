import { describe, expect, it } from "vitest";
import { FOCUS_SPEC, mandatoryColumns } from "../spec.ts";
import { gitBlobId, parseColumn } from "./parse-spec.ts";

// The fixture holds the FOCUS 1.2 column files verbatim plus what was derived from them; these
// tests re-derive everything from the stored originals, so neither can drift from the other.

describe("the FOCUS 1.2 fixture", () => {
  it("comes from the v1.2 release commit", () => {
    expect(FOCUS_SPEC).toMatchObject({
      version: "1.2",
      ref: "v1.2",
      commit: "7296e3146fb931ee32b6496fa6e4200e7f4384f7",
      license: "CC-BY-4.0",
    });
    expect(FOCUS_SPEC.columns).toHaveLength(57);
  });

  it("keeps each file verbatim: its git blob id is the one recorded", () => {
    for (const f of [...FOCUS_SPEC.columns, ...FOCUS_SPEC.attributes]) {
      expect(gitBlobId(f.markdown), f.file).toBe(f.gitBlob);
    }
    // billedcost.md at v1.2, as `git ls-tree v1.2 specification/columns/` lists it
    expect(FOCUS_SPEC.columns.find((c) => c.file === "billedcost.md")?.gitBlob).toBe(
      "5ccb7309c4b0997117e257978d8da4f6447ad452",
    );
  });

  it("derives every column's facts from its own markdown", () => {
    for (const { file, gitBlob: _b, markdown, ...facts } of FOCUS_SPEC.columns) {
      expect(parseColumn(markdown, file), file).toEqual(facts);
    }
  });

  it("has the 21 Mandatory columns of FOCUS 1.2", () => {
    expect(mandatoryColumns().sort()).toEqual(
      [
        "BilledCost",
        "BillingAccountId",
        "BillingAccountName",
        "BillingCurrency",
        "BillingPeriodEnd",
        "BillingPeriodStart",
        "ChargeCategory",
        "ChargeClass",
        "ChargeDescription",
        "ChargePeriodEnd",
        "ChargePeriodStart",
        "ContractedCost",
        "EffectiveCost",
        "InvoiceIssuerName",
        "ListCost",
        "PricingQuantity",
        "PricingUnit",
        "ProviderName",
        "PublisherName",
        "ServiceCategory",
        "ServiceName",
      ].sort(),
    );
  });

  it("reads types, nullability and allowed values as the tables state them", () => {
    const col = (id: string) => FOCUS_SPEC.columns.find((c) => c.columnId === id);
    expect(col("BilledCost")).toMatchObject({ dataType: "Decimal", allowsNulls: false });
    expect(col("Tags")).toMatchObject({ dataType: "JSON", featureLevel: "Conditional" });
    expect(col("ChargePeriodStart")?.dataType).toBe("Date/Time");
    expect(col("PricingCategory")?.allowedValues?.map((v) => v.value)).toEqual([
      "Standard",
      "Dynamic",
      "Committed",
      "Other",
    ]);
    expect(col("ServiceSubcategory")?.allowedValues).toContainEqual({
      value: "Virtual Machines",
      parent: "Compute",
    });
    expect(col("ServiceCategory")?.allowedValues).toHaveLength(19);
  });

  it("refuses a column file it cannot read instead of guessing", () => {
    const md = FOCUS_SPEC.columns[0]?.markdown ?? "";
    expect(() => parseColumn(md.replace("## Column ID", "## Col"), "x.md")).toThrow(/Column ID/);
    expect(() =>
      parseColumn(md.replace(/Allows nulls\s*\|\s*True/, "Allows nulls | Maybe"), "x.md"),
    ).toThrow(/allows nulls/);
    expect(() => parseColumn("# Nothing\n", "empty.md")).toThrow();
  });
});
