import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { costQueries } from "./costs.ts";
import { fetchJson, HttpError, retryTransient } from "./fetch-json.ts";
import { fleetQueries } from "./fleet.ts";
import { instanceQueries } from "./instances.ts";

afterEach(() => vi.unstubAllGlobals());

describe("query factories", () => {
  it("build stable, hierarchical keys", () => {
    expect(fleetQueries.series("6h").queryKey).toEqual(["fleet", "series", "6h"]);
    expect(instanceQueries.detail("h1").queryKey).toEqual(["instances", "detail", "h1"]);
    expect(instanceQueries.series("h1", "1h").queryKey).toEqual([
      "instances",
      "series",
      "h1",
      "1h",
    ]);
    expect(costQueries.month("2026-11").queryKey).toEqual(["costs", "month", "2026-11"]);
    expect(costQueries.month(null).queryKey).toEqual(["costs", "month", "current"]);
    expect(costQueries.exportUrl("2026-11")).toBe("/api/costs/export.csv?month=2026-11");
  });
});

describe("fetchJson", () => {
  it("validates the body and surfaces the server's error message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url === "/ok"
          ? Response.json({ a: 1 })
          : Response.json({ error: "invalid query: month: bad" }, { status: 400 }),
      ),
    );
    await expect(fetchJson("/ok", z.object({ a: z.number() }))).resolves.toEqual({ a: 1 });
    await expect(fetchJson("/ok", z.object({ a: z.string() }))).rejects.toThrow(/unexpected/);
    await expect(fetchJson("/bad", z.object({}))).rejects.toMatchObject({
      status: 400,
      message: "invalid query: month: bad",
    });
  });
  it("retries only transient failures", () => {
    expect(retryTransient(0, new HttpError(404, "x"))).toBe(false);
    expect(retryTransient(0, new HttpError(503, "x"))).toBe(true);
    expect(retryTransient(2, new Error("network"))).toBe(false);
  });
});
