import { describe, expect, it, vi } from "vitest";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  SourceUnavailableError,
} from "@/lib/core/errors.ts";
import { tableQuerySchema } from "@/lib/zod/schemas/instance-query.ts";
import { monthQuerySchema } from "@/lib/zod/schemas/month.ts";
import { rangeQuerySchema } from "@/lib/zod/schemas/range.ts";
import { BadRequestError, auditAction, errorResponse, handlePublic, parseQuery } from "./handle.ts";

const url = (qs: string) => `http://localhost/api/x${qs}`;

describe("parseQuery", () => {
  it("applies defaults and accepts valid values", () => {
    expect(parseQuery(rangeQuerySchema, url(""))).toEqual({ range: "1h" });
    expect(parseQuery(rangeQuerySchema, url("?range=7d"))).toEqual({ range: "7d" });
    expect(parseQuery(monthQuerySchema, url("?month=2026-02"))).toEqual({ month: "2026-02" });
    expect(parseQuery(tableQuerySchema, url("?team=vision&sort=util&dir=desc"))).toEqual({
      sort: "util",
      dir: "desc",
      team: "vision",
    });
  });

  it("rejects bad, unknown and repeated parameters with a message", () => {
    expect(() => parseQuery(rangeQuerySchema, url("?range=2h"))).toThrow(
      /range: range must be one of/,
    );
    expect(() => parseQuery(monthQuerySchema, url("?month=2026-13"))).toThrow(/YYYY-MM/);
    expect(() => parseQuery(monthQuerySchema, url("?mnth=2026-01"))).toThrow(BadRequestError);
    expect(() => parseQuery(rangeQuerySchema, url("?range=1h&range=6h"))).toThrow(/more than once/);
    expect(() => parseQuery(tableQuerySchema, url("?state=sleeping"))).toThrow(/state/);
  });
});

describe("errorResponse", () => {
  it("maps domain errors to statuses with a JSON body", async () => {
    const bad = errorResponse(
      new BadRequestError("invalid query: x", [{ path: "x", message: "no" }]),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: "invalid query: x",
      code: "bad_request",
      issues: [{ path: "x", message: "no" }],
    });
    expect(errorResponse(new NotFoundError("instance h1")).status).toBe(404);
    // every error has the one shape, domain errors of every feature included
    const conflict = errorResponse(new ConflictError("already resolved"));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: "already resolved", code: "conflict" });
    const invalid = errorResponse(
      new InvalidInputError("invalid rule: name: required", [
        { path: "name", message: "required" },
      ]),
    );
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: "invalid rule: name: required",
      code: "invalid_input",
      issues: [{ path: "name", message: "required" }],
    });
    expect(errorResponse(new SourceUnavailableError(new Error("down"))).status).toBe(503);
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const boom = errorResponse(
      new Error("SqliteError: no such table: UsageHour (file /srv/gpufleet/data/gpufleet.db)"),
    );
    expect(boom.status).toBe(500);
    const error = ((await boom.json()) as { error: string }).error;
    // the internals go to the log under a reference, never to the caller
    expect(error).toMatch(
      /^internal error \(reference [0-9a-f]{8}; the details are in the server log\)$/,
    );
    expect(error).not.toMatch(/sqlite|UsageHour|\/srv/i);
    expect(((await errorResponse(new Error("x")).json()) as { code: string }).code).toBe(
      "internal",
    );
    const logged = spy.mock.calls.map((c) => c.map(String).join(" ")).join("\n");
    const ref = /reference ([0-9a-f]{8})/.exec(error)?.[1] ?? "none";
    expect(logged).toContain(`internal error ${ref}`);
    expect(logged).toContain("no such table");
    spy.mockRestore();
  });

  it("wraps a handler so thrown errors become responses", async () => {
    const h = handlePublic(async (req: Request) => {
      parseQuery(rangeQuerySchema, req.url);
      return Response.json({ ok: true });
    });
    expect((await h(new Request(url("?range=1h")), {})).status).toBe(200);
    expect((await h(new Request(url("?range=nope")), {})).status).toBe(400);
    expect((await h(new Request(url("?range=1h")), {})).headers.get("content-type")).toContain(
      "json",
    );
  });
});

describe("auditAction", () => {
  it("names a change after the resource and the verb or sub-action", () => {
    expect(auditAction("POST", "/api/budgets", undefined)).toBe("budgets.create");
    expect(auditAction("PATCH", "/api/budgets/b1", "b1")).toBe("budgets.update");
    expect(auditAction("DELETE", "/api/rules/r%201", "r 1")).toBe("rules.delete");
    expect(auditAction("POST", "/api/alerts/a1/acknowledge", "a1")).toBe("alerts.acknowledge");
    expect(auditAction("POST", "/api/recommendations/recompute", undefined)).toBe(
      "recommendations.recompute",
    );
  });
});
