import { describe, expect, it } from "vitest";
import {
  focusExportUrl,
  focusFileName,
  focusPeriod,
  focusQuerySchema,
  MAX_FOCUS_DAYS,
  parseUtcDay,
} from "./query.ts";

const parse = (q: Record<string, string>) => focusQuerySchema.safeParse(q);
const messages = (q: Record<string, string>) =>
  parse(q).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("focusQuerySchema", () => {
  it("defaults to CSV, daily, the current month", () => {
    const q = focusQuerySchema.parse({});
    expect(q).toEqual({ format: "csv", granularity: "daily" });
    const p = focusPeriod(q, new Date("2026-11-17T12:00:00Z"));
    expect(p).toEqual({
      from: new Date("2026-11-01T00:00:00Z"),
      to: new Date("2026-12-01T00:00:00Z"),
      label: "2026-11",
    });
    expect(focusFileName(p, q)).toBe("gpufleet-focus-1.2-2026-11-daily.csv");
  });

  it("takes a range of whole days, both ends included", () => {
    const q = focusQuerySchema.parse({ from: "2026-02-27", to: "2026-03-01", format: "parquet" });
    expect(focusPeriod(q, new Date())).toEqual({
      from: new Date("2026-02-27T00:00:00Z"),
      to: new Date("2026-03-02T00:00:00Z"),
      label: "2026-02-27_2026-03-01",
    });
    const longest = { from: "2028-01-01", to: "2028-12-31" }; // 366 days, a leap year
    expect(parse(longest).success).toBe(true);
    expect(MAX_FOCUS_DAYS).toBe(366);
  });

  it("says what is wrong with a bad query", () => {
    expect(messages({ format: "xlsx" })).toEqual(["format: format must be csv or parquet"]);
    expect(messages({ granularity: "weekly" })).toEqual([
      "granularity: granularity must be daily or hourly",
    ]);
    expect(messages({ month: "2026-13" })).toEqual(["month: month must be YYYY-MM, e.g. 2026-11"]);
    expect(messages({ month: "2026-11", from: "2026-11-01", to: "2026-11-02" })).toEqual([
      "month: give month, or from and to, not both",
    ]);
    expect(messages({ from: "2026-11-01" })).toEqual(["to: from and to go together"]);
    expect(messages({ from: "2026-11-02", to: "2026-11-01" })).toEqual(["to: to is before from"]);
    expect(messages({ from: "2026-01-01", to: "2027-01-02" })).toEqual([
      "to: at most 366 days per export",
    ]);
    expect(messages({ from: "2026-02-30", to: "2026-03-01" })[0]).toMatch(/^from: a date must be/);
    expect(messages({ foo: "1" })[0]).toMatch(/foo/);
  });

  it("parses only real days between 2000 and 2100", () => {
    expect(parseUtcDay("2028-02-29")).toEqual(new Date("2028-02-29T00:00:00Z"));
    for (const bad of ["2026-02-29", "1999-12-31", "2101-01-01", "2026-1-01", "20261101"]) {
      expect(parseUtcDay(bad), bad).toBeNull();
    }
  });

  it("builds the costs page's download link", () => {
    expect(focusExportUrl({ month: "2026-11", format: "parquet", granularity: "hourly" })).toBe(
      "/api/costs/focus?format=parquet&granularity=hourly&month=2026-11",
    );
  });
});
