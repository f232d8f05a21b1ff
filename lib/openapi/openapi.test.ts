import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.ts";

// The alerting and pricing routes are checked in alerting.test.ts.
const ALERTING = /^\/api\/(alerts|recommendations|rules|budgets|channels|pricing)(\/|$)/;

describe("openApiDocument", () => {
  const doc = openApiDocument() as {
    openapi: string;
    paths: Record<string, { get: { parameters: { name: string; required: boolean }[] } }>;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };

  it("is OpenAPI 3.1 and documents every dashboard route", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(
      Object.keys(doc.paths)
        .filter((p) => !ALERTING.test(p))
        .sort(),
    ).toEqual([
      "/api/benchmarks",
      "/api/benchmarks/import",
      "/api/benchmarks/{id}",
      "/api/billing/actuals",
      "/api/billing/import",
      "/api/billing/reconcile",
      "/api/billing/reconcile.csv",
      "/api/compare",
      "/api/costs",
      "/api/costs/export.csv",
      "/api/costs/focus",
      "/api/costs/holders",
      "/api/costs/holders.csv",
      "/api/fleet",
      "/api/fleet/gpus",
      "/api/fleet/series",
      "/api/instances",
      "/api/instances/{id}",
      "/api/instances/{id}/series",
      "/api/me/gpus",
      "/api/people",
      "/api/people/import",
      "/api/people/{id}",
      "/api/policies",
      "/api/policies/actions",
      "/api/policies/hosts/{id}/start",
      "/api/policies/keep",
      "/api/policies/savings",
      "/api/policies/scale-signals",
      "/api/policies/{id}",
      "/api/work/trials",
      "/api/work/unit-costs",
      "/api/work/unit-costs.csv",
    ]);
  });

  it("derives query parameters and bodies from the zod schemas", () => {
    const names = (p: string) => doc.paths[p]?.get.parameters.map((x) => x.name);
    expect(names("/api/fleet/series")).toEqual(["range"]);
    expect(names("/api/costs")).toEqual(["month"]);
    expect(names("/api/fleet/gpus")).toEqual(["by", "key", "page", "pageSize"]);
    expect(Object.keys(doc.components.schemas.FleetSummary?.properties ?? {})).toEqual(
      expect.arrayContaining(["groups", "attention"]),
    );
    expect(Object.keys(doc.components.schemas.FleetSummary?.properties ?? {})).not.toContain(
      "grid",
    );
    expect(names("/api/instances")).toEqual(["sort", "dir", "provider", "team", "state", "q"]);
    expect(doc.paths["/api/instances/{id}"]?.get.parameters[0]).toMatchObject({
      name: "id",
      required: true,
    });
    expect(Object.keys(doc.components.schemas.CostMonth?.properties ?? {})).toContain("breakdowns");
    expect(Object.keys(doc.components.schemas.HolderSpend?.properties ?? {})).toContain("rows");
    expect(doc.components.schemas.PersonList).toBeDefined();
    // the whole document must survive JSON (no functions, no BigInt)
    expect(() => JSON.stringify(doc)).not.toThrow();
  });
});
