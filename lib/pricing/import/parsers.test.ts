import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { termModel, type AwsTerm } from "./aws-common.ts";
import { walkJson, type JsonValue, type PathPart } from "./json-stream.ts";
import { decimalToMicros, moneyToNanos, nanosToMicros } from "./price.ts";

// The pieces under the importers: the streaming JSON walker (lines, exact numbers, chunk
// boundaries), which AWS terms become rows (read off the real reserved rows of the CSV sample),
// and the exact price arithmetic.

async function collect(chunks: (string | Uint8Array)[], depth: number) {
  const got: { path: PathPart[]; value: JsonValue; line: number }[] = [];
  await walkJson("t.json", chunks, {
    select: (path) => path.length === depth,
    value: (path, value, line) => got.push({ path, value, line }),
  });
  return got;
}

describe("walkJson", () => {
  it("delivers selected values with their path and first line, numbers as written", async () => {
    const text =
      '{\n  "a": {\n    "x": 0.1000000000000000055511151231257827,\n    "y": [1, {"z": true}]\n  },\n  "b": null\n}\n';
    const got = await collect([text], 2);
    expect(got).toEqual([
      { path: ["a", "x"], value: "0.1000000000000000055511151231257827", line: 3 },
      { path: ["a", "y"], value: ["1", { z: true }], line: 4 },
    ]);
  });

  it("keeps a __proto__ key as data and survives UTF-8 split across chunks", async () => {
    const bytes = new TextEncoder().encode('{"k": {"__proto__": "€ price"}}');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of "€"
    const got = await collect([bytes.slice(0, cut), bytes.slice(cut)], 1);
    const value = got[0]?.value as Record<string, JsonValue>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(value["__proto__"]).toBe("€ price");
  });

  it("refuses a second document, an empty file and text that is not UTF-8", async () => {
    await expect(collect(['{"a": 1}\n{"b": 2}'], 1)).rejects.toThrow(
      "t.json: line 2: not valid JSON (cannot parse input: unexpected characters)",
    );
    await expect(collect(["  \n"], 1)).rejects.toThrow("the file is empty, not a JSON document");
    await expect(collect([new Uint8Array([0x7b, 0xff, 0x7d])], 1)).rejects.toThrow(
      "not UTF-8 text",
    );
  });
});

describe("AWS terms: on-demand, and the 1-year standard No Upfront reservation", () => {
  it("reads the real reserved rows of the 2025-09 CSV sample", () => {
    const text = readFileSync(
      new URL("./fixtures/aws-ec2-global-sample-20250912225308.csv", import.meta.url),
      "utf8",
    );
    const rows = parse(text.split("\n").slice(5).join("\n"), {
      columns: true,
      relax_column_count: true,
    }) as Record<string, string>[];
    const c6i = rows.filter((r) => r["Instance Type"] === "c6i.large");
    const models = c6i.map((r) => {
      const t: AwsTerm = {
        termType: r.TermType === "OnDemand" ? "OnDemand" : "Reserved",
        unit: r.Unit ?? "",
        usd: r.PricePerUnit ?? null,
        otherCurrency: null,
        effectiveDate: r.EffectiveDate ?? "",
        leaseContractLength: r.LeaseContractLength,
        offeringClass: r.OfferingClass,
        purchaseOption: r.PurchaseOption,
      };
      const m = termModel(t);
      return `${r.PricePerUnit}: ${typeof m === "string" ? m : m.model}`;
    });
    expect(models).toContain("0.2372200000: reserved"); // 1yr standard No Upfront, hourly
    expect(models).toContain("0.2773000000: on_demand");
    expect(models).toContain("0.2132400000: reserved term other than 1-year standard No Upfront");
    expect(models).toContain("2750: term dimension not hourly (upfront fee)");
    expect(models.filter((m) => m.endsWith(": reserved"))).toHaveLength(1);
  });
});

describe("prices", () => {
  it("keeps six decimals exactly and rounds further digits half up, saying so", () => {
    expect(decimalToMicros("21.9576420000")).toEqual({ micros: 21_957_642n, rounded: null });
    expect(decimalToMicros("0.1234565")).toEqual({
      micros: 123_457n,
      rounded: "rounded from 0.1234565 USD",
    });
    expect(decimalToMicros("1e-5")).toBeNull();
    expect(decimalToMicros("-1")).toBeNull();
  });

  it("turns GCP units and nanos into micros exactly", () => {
    const nanos = moneyToNanos("2", 933_908_000);
    expect(nanos).toBe(2_933_908_000n);
    expect(nanosToMicros(2_933_908_000n)).toEqual({ micros: 2_933_908n, rounded: null });
    expect(nanosToMicros(1_500n).micros).toBe(2n);
    expect(moneyToNanos("2", 1e9)).toBeNull();
  });
});
