import { describe, expect, it } from "vitest";
import {
  isFiltered,
  matchesPricingFilters,
  NO_PRICING_FILTERS,
  pricingFilterOptions,
  staleCount,
} from "./pricing-filter.ts";
import { effectiveDateText } from "./pricing-table.tsx";

const NOW = new Date("2026-11-15T12:00:00Z");
const row = (
  provider: string,
  instanceType: string,
  region: string,
  gpuModel: string,
  sourceDate: string,
) => ({ provider, instanceType, region, gpuModel, sourceDate });

const ROWS = [
  row("aws", "p5.48xlarge", "us-east-1", "H100", "2026-09-10"),
  row("aws", "p5.48xlarge", "*", "H100", "2025-06"),
  row("aws", "g4dn.xlarge", "eu-west-1", "T4", "2026-09-10"),
  row("gcp", "a3-highgpu-8g", "*", "H100", "2025-01"),
  row("alibaba", "ecs.gn7i-c8g1.2xlarge", "cn-shanghai", "A10", "2026-10"),
];

const ids = (f: Partial<typeof NO_PRICING_FILTERS>) =>
  ROWS.filter((r) => matchesPricingFilters(r, { ...NO_PRICING_FILTERS, ...f }, NOW)).map(
    (r) => `${r.provider} ${r.instanceType} ${r.region}`,
  );

describe("pricing catalogue filters", () => {
  it("keeps every row with no filter", () => {
    expect(ids({})).toHaveLength(ROWS.length);
    expect(isFiltered(NO_PRICING_FILTERS)).toBe(false);
    expect(isFiltered({ ...NO_PRICING_FILTERS, instanceType: "  " })).toBe(false);
    expect(isFiltered({ ...NO_PRICING_FILTERS, staleOnly: true })).toBe(true);
  });

  it("filters by provider, part of the instance type, region, GPU model and staleness", () => {
    expect(ids({ provider: "aws" })).toEqual([
      "aws p5.48xlarge us-east-1",
      "aws p5.48xlarge *",
      "aws g4dn.xlarge eu-west-1",
    ]);
    expect(ids({ instanceType: " P5. " })).toEqual([
      "aws p5.48xlarge us-east-1",
      "aws p5.48xlarge *",
    ]);
    expect(ids({ region: "*" })).toEqual(["aws p5.48xlarge *", "gcp a3-highgpu-8g *"]);
    expect(ids({ gpuModel: "H100", provider: "gcp" })).toEqual(["gcp a3-highgpu-8g *"]);
    // read more than 90 days before 2026-11-15: June 2025 and January 2025
    expect(ids({ staleOnly: true })).toEqual(["aws p5.48xlarge *", "gcp a3-highgpu-8g *"]);
    expect(staleCount(ROWS, NOW)).toBe(2);
    expect(ids({ staleOnly: true, provider: "alibaba" })).toEqual([]);
  });

  it("offers the values present, sorted, the fallback region last", () => {
    expect(pricingFilterOptions(ROWS)).toEqual({
      providers: ["alibaba", "aws", "gcp"],
      regions: ["cn-shanghai", "eu-west-1", "us-east-1", "*"],
      gpuModels: ["A10", "H100", "T4"],
      instanceTypes: ["a3-highgpu-8g", "ecs.gn7i-c8g1.2xlarge", "g4dn.xlarge", "p5.48xlarge"],
    });
  });
});

describe("effective dates in the catalogue", () => {
  it("are UTC days, with the time only when a row starts mid-day", () => {
    expect(effectiveDateText("2025-06-01T00:00:00.000Z")).toBe("2025-06-01");
    expect(effectiveDateText("2025-06-01T14:30:00.000Z")).toBe("2025-06-01 14:30 UTC");
  });
});
