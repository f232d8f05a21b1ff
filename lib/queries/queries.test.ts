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
    expect(fleetQueries.gpus("team", "a b", 2, 100).queryKey).toEqual([
      "fleet",
      "gpus",
      "team",
      "a b",
      2,
      100,
    ]);
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
  it("asks for a group's page with its key encoded", async () => {
    const fetchMock = vi.fn(async (_url: string) =>
      Response.json({
        generatedAt: "2026-11-10T12:00:00.000Z",
        by: "team",
        key: "r&d",
        total: 0,
        page: 1,
        pageSize: 50,
        pages: 0,
        gpus: [],
      }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const q = fleetQueries.gpus("team", "r&d", 1, 50);
    const fn = q.queryFn as unknown as (ctx: { signal: AbortSignal }) => Promise<{ total: number }>;
    await expect(fn({ signal: new AbortController().signal })).resolves.toMatchObject({ total: 0 });
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      "/api/fleet/gpus?by=team&key=r%26d&page=1&pageSize=50",
    );
  });
  it("retries only transient failures", () => {
    expect(retryTransient(0, new HttpError(404, "x"))).toBe(false);
    expect(retryTransient(0, new HttpError(503, "x"))).toBe(true);
    expect(retryTransient(2, new Error("network"))).toBe(false);
  });
});
