import { describe, expect, it } from "vitest";
import { emptyParsed, mergeParsed, type ImportRow, type ParsedImport } from "./types.ts";

// Merging a file's result into the running total never spreads its rows into a call's arguments:
// a Tencent template of 150,000 rows overflowed the stack ("Maximum call stack size exceeded",
// a 500 on upload).

function parsedWith(count: number): ParsedImport {
  const row: ImportRow = {
    provider: "tencent",
    instanceType: "GN7.2XLARGE32",
    region: "ap-guangzhou",
    pricingModel: "on_demand",
    gpuModel: "T4",
    gpuCount: 1,
    gpuMemoryBytes: 16n * 1024n ** 3n,
    usdPerHourMicros: 1_260_000n,
    currency: "USD",
    effectiveFrom: new Date("2026-11-01T00:00:00Z"),
    source: "test",
    sourceDate: "2026-11",
    note: null,
    where: "t.csv line 2",
    file: "t.csv",
  };
  const p = emptyParsed();
  p.rows = Array.from({ length: count }, () => row);
  p.skipped = { "zero price": 2 };
  p.skippedNonGpu = 3;
  p.describes = ["t.csv: tencent price template"];
  return p;
}

describe("mergeParsed", () => {
  it("merges 150,000 rows (and the counts) without overflowing the stack", () => {
    const total = emptyParsed();
    mergeParsed(total, parsedWith(10));
    mergeParsed(total, parsedWith(150_000));
    expect(total.rows).toHaveLength(150_010);
    expect(total.skipped).toEqual({ "zero price": 4 });
    expect(total.skippedNonGpu).toBe(6);
    expect(total.describes).toHaveLength(2);
  });
});
