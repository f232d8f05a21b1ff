import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../../core/errors.ts";
import { parseOffThread, PARALLEL } from "./parse-off-thread.ts";

// Uploads are parsed on a worker thread: this thread's parseImport is replaced by one that fails,
// so every result below can only have come from the worker (which loads the real one itself).

vi.mock("./parse.ts", () => ({
  parseImport: () => {
    throw new Error("parsed on the request thread");
  },
}));

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe("parseOffThread", () => {
  it("parses on a worker, with prices and dates intact", async () => {
    const parsed = await parseOffThread({
      provider: "tencent",
      name: "t.csv",
      bytes: fixture("tencent-gpu-ap-guangzhou.csv"),
      opts: {},
    });
    expect(parsed.rows).toHaveLength(4);
    expect(parsed.rows[1]).toMatchObject({
      instanceType: "GN7.2XLARGE32",
      usdPerHourMicros: 1_260_000n,
      effectiveFrom: new Date("2026-11-01T00:00:00Z"),
    });
  });

  it("brings a refusal back as the 400 it is, naming the line", async () => {
    const bytes = Buffer.from(`{"offerCode":"AmazonEC2","products":{"x":${"[".repeat(100_000)}`);
    const error = await parseOffThread({ provider: "aws", name: "h.json", bytes, opts: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).message).toBe(
      "h.json: line 1: nested more than 64 levels deep: not a price list",
    );
    expect((error as InvalidInputError).issues).toEqual([
      { path: "line 1", message: "nested more than 64 levels deep: not a price list" },
    ]);
  });

  it(`runs at most ${PARALLEL} at once and the rest in turn, all answered`, async () => {
    const bytes = fixture("alibaba-gpu.csv");
    const results = await Promise.all(
      Array.from({ length: PARALLEL * 2 + 1 }, (_, i) =>
        parseOffThread({ provider: "alibaba", name: `a${i}.csv`, bytes, opts: {} }),
      ),
    );
    expect(results.map((r) => r.describes[0])).toEqual(
      results.map((_, i) => `a${i}.csv: alibaba price template, 1 rows`),
    );
  });
});
