import { describe, expect, it } from "vitest";
import { contentTypeFor, importUrl, safeFileName, skippedList, uploadProblem } from "./upload.ts";

describe("settings upload helpers", () => {
  it("sends CSV as text/csv and anything else as JSON", () => {
    expect(contentTypeFor("tencent.CSV")).toBe("text/csv");
    expect(contentTypeFor("page-1.json")).toBe("application/json");
  });

  it("says what is wrong before anything is sent", () => {
    expect(uploadProblem("aws", null, "")).toBe("choose a file");
    expect(uploadProblem("aws", { name: "index.json", size: 400 * 2 ** 20 }, "")).toMatch(
      /^the file is 400 MiB; uploads stop at 16 MiB: import a full AWS offer file with npm run pricing:import/,
    );
    expect(uploadProblem("tencent", { name: "t.json", size: 10 }, "")).toBe(
      "a tencent price list is .csv",
    );
    expect(uploadProblem("azure", { name: "p.json", size: 10 }, "")).toBe(
      "give the day the page was downloaded",
    );
    expect(uploadProblem("azure", { name: "p.json", size: 10 }, "2026-11-30")).toBeNull();
  });

  it("builds the route URL with a clean file name, and a date only where the page needs one", () => {
    expect(importUrl("gcp", "C:\\dl\\skus page#1.json", "2026-11-30", "preview")).toBe(
      "/api/pricing/import?provider=gcp&file=skus+page_1.json&mode=preview&sourceDate=2026-11-30",
    );
    expect(importUrl("aws", "../x.csv", "2026-11-30", "apply")).toBe(
      "/api/pricing/import?provider=aws&file=x.csv&mode=apply",
    );
    expect(safeFileName("…")).toBe("upload");
  });

  it("lists skip reasons most frequent first", () => {
    expect(skippedList({ skipped: { Windows: 2, "not a GPU instance": 10, b: 2 } })).toEqual([
      { reason: "not a GPU instance", count: 10 },
      { reason: "Windows", count: 2 },
      { reason: "b", count: 2 },
    ]);
  });
});
