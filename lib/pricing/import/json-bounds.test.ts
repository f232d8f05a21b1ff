import { describe, expect, it } from "vitest";
import { MAX_DEPTH, MAX_TOKEN_CHARS, MAX_VALUE_TOKENS, walkJson } from "./json-stream.ts";
import { parseImport } from "./parse.ts";
import { MAX_CSV_RECORD_CHARS } from "./types.ts";

// A hostile upload is refused while it streams: nesting, one overlong token, one selected value
// with too many parts. Before these bounds a 16 MiB `[[[[...` inside one AWS product was
// assembled whole (3 GB of memory, the event loop blocked for seconds).

const refusal = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    await run();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("not refused");
};

const walkAll = (text: string) =>
  walkJson("h.json", [text], { select: (path) => path.length === 2, value: () => undefined });

describe("walkJson bounds", () => {
  it(`refuses nesting deeper than ${MAX_DEPTH} levels, selected or walked through`, async () => {
    const deep = `{"offerCode":"AmazonEC2","products":{"x":${"[".repeat(1 << 20)}`;
    expect(await refusal(() => walkAll(deep))).toBe(
      `h.json: line 1: nested more than ${MAX_DEPTH} levels deep: not a price list`,
    );
    const walked = `{"a":\n${"[".repeat(MAX_DEPTH + 5)}`;
    expect(
      await refusal(() =>
        walkJson("h.json", [walked], { select: () => false, value: () => undefined }),
      ),
    ).toMatch(/^h\.json: line 2: nested more than 64 levels/);
    const fits = `{"a":{"b":${"[".repeat(MAX_DEPTH - 2)}${"]".repeat(MAX_DEPTH - 2)}}}`;
    await walkAll(fits);
  });

  it(`refuses a key, string or number longer than ${MAX_TOKEN_CHARS} characters`, async () => {
    const long = "x".repeat(MAX_TOKEN_CHARS + 1);
    for (const doc of [
      `{"a":{"b":"${long}"}}`,
      `{"${long}":1}`,
      `{"a":{"b":1${"0".repeat(MAX_TOKEN_CHARS)}}}`,
    ]) {
      expect(await refusal(() => walkAll(doc))).toMatch(
        /^h\.json: line 1: a key, string or number longer than 65536 characters: not a price list$/,
      );
    }
    await walkAll(`{"a":{"b":"${"x".repeat(MAX_TOKEN_CHARS)}"}}`);
  });

  it(`refuses one selected value of more than ${MAX_VALUE_TOKENS} parts`, async () => {
    const wide = `{"products":\n{"x":[${Array.from({ length: MAX_VALUE_TOKENS + 1 }, () => "1").join(",")}]}}`;
    expect(await refusal(() => walkAll(wide))).toMatch(
      /^h\.json: line \d+: products\.x \(from line 2\) holds more than 100000 values: not a price list$/,
    );
  });

  it("refuses the 16 MiB hostile AWS upload of issue 23 through the import", async () => {
    const body = `{"offerCode":"AmazonEC2","products":{"x":${"[".repeat(16 * 1024 * 1024 - 45)}`;
    const message = await refusal(() =>
      parseImport("aws", [{ name: "hostile.json", source: [Buffer.from(body)] }]),
    );
    expect(message).toBe("hostile.json: line 1: nested more than 64 levels deep: not a price list");
  });

  it("refuses a CSV line longer than 64 KiB, in a template and in an AWS offer file", async () => {
    const header =
      "provider,instance_type,region,pricing_model,gpu_model,gpu_count,gpu_memory_gib,price_per_hour,currency,effective_from,source_url,source_date\n";
    const template = `${header}tencent,${"x".repeat(MAX_CSV_RECORD_CHARS + 1)}\n`;
    expect(
      await refusal(() => parseImport("tencent", [{ name: "t.csv", source: [template] }])),
    ).toBe("t.csv: line 2: a line longer than 65536 characters: not a price list");
    const aws = `"FormatVersion","v1.0"\n"Disclaimer","${"x".repeat(MAX_CSV_RECORD_CHARS + 1)}"\n`;
    expect(await refusal(() => parseImport("aws", [{ name: "a.csv", source: [aws] }]))).toBe(
      "a.csv: line 2: a line longer than 65536 characters: not a price list",
    );
  });
});
