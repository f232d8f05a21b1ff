import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.ts";
import { parseBenchmarkCsv } from "./csv.ts";

const HEADER = "provider,instanceType,workload,unit,value,source,sourceDate,note";
const GOOD = "aws,p5.48xlarge,Llama 2 70B,tokens/s,24525,https://example.test/mlperf,2025-11,";

function refusal(text: string): InvalidInputError {
  try {
    parseBenchmarkCsv(text);
  } catch (e) {
    if (e instanceof InvalidInputError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("benchmark CSV", () => {
  it("reads results, with or without the note column, quoted fields included", () => {
    const rows = parseBenchmarkCsv(
      `${HEADER}\n${GOOD}\nGCP,a3-highgpu-8g,"ResNet-50, offline",images/s,1000.5,MLPerf,2024-09,"a ""quoted"" note"\n`,
    );
    expect(rows).toEqual([
      expect.objectContaining({ provider: "aws", value: 24525, note: null }),
      expect.objectContaining({
        provider: "gcp",
        workload: "ResNet-50, offline",
        value: 1000.5,
        note: 'a "quoted" note',
      }),
    ]);
    const noNote = parseBenchmarkCsv(
      "provider,instanceType,workload,unit,value,source,sourceDate\naws,g5.xlarge,w,tokens/s,10,s,2025-01",
    );
    expect(noNote).toHaveLength(1);
  });

  it("refuses a bad line naming its line number, and the whole file with it", () => {
    const e = refusal(
      `${HEADER}\n${GOOD}\naws,g5.xlarge,w,tokens/s,-3,s,2025-01,\naws,g6.xlarge,w,tokens/s,12,s,Nov 2025,`,
    );
    expect(e.message).toMatch(
      /^line 3: value: value must be more than 0 \(and 1 more\); nothing was imported$/,
    );
    expect(e.issues).toEqual([
      { path: "line 3", message: "value: value must be more than 0" },
      { path: "line 4", message: expect.stringMatching(/^sourceDate: /) },
    ]);
  });

  it("refuses a wrong header, a short line, a duplicate and an empty file", () => {
    expect(refusal("provider,type\naws,x").message).toMatch(/^line 1: the header must be/);
    expect(refusal(`${HEADER}\naws,p5.48xlarge,w`).issues[0]).toEqual({
      path: "line 2",
      message: "3 fields, the header has 8",
    });
    expect(refusal(`${HEADER}\n${GOOD}\n\n${GOOD}`).issues[0]).toEqual({
      path: "line 4",
      message: "the same result as line 2",
    });
    expect(refusal("").message).toMatch(/empty/);
    expect(refusal(`${HEADER}\n`).message).toMatch(/no results/);
    expect(refusal(`${HEADER}\n"unclosed`).message).toMatch(/cannot be read/);
  });
});
