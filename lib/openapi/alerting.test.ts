import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.ts";

describe("OpenAPI: alerting and pricing routes", () => {
  const doc = openApiDocument() as {
    paths: Record<
      string,
      Record<string, { parameters?: { name: string }[]; requestBody?: unknown }>
    >;
    components: { schemas: Record<string, unknown> };
  };

  it("documents every alerting route and method", () => {
    const mine = Object.entries(doc.paths)
      .filter(([p]) => /^\/api\/(alerts|recommendations|rules|budgets|channels|pricing)/.test(p))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(mine).toEqual(
      [
        "GET /api/alerts",
        "POST /api/alerts/evaluate",
        "POST /api/alerts/bulk",
        "GET /api/alerts/{id}",
        "POST /api/alerts/{id}/acknowledge",
        "POST /api/alerts/{id}/snooze",
        "POST /api/alerts/{id}/resolve",
        "GET /api/recommendations",
        "POST /api/recommendations/recompute",
        "GET /api/recommendations/{id}",
        "POST /api/recommendations/{id}/accept",
        "POST /api/recommendations/{id}/dismiss",
        "POST /api/recommendations/{id}/snooze",
        "POST /api/recommendations/{id}/reopen",
        "GET /api/recommendations/{id}/release",
        "POST /api/recommendations/{id}/release",
        "GET /api/recommendations/{id}/resize",
        "POST /api/recommendations/{id}/resize",
        ...["rules", "budgets", "channels"].flatMap((e) => [
          `GET /api/${e}`,
          `POST /api/${e}`,
          `GET /api/${e}/{id}`,
          `PATCH /api/${e}/{id}`,
          `DELETE /api/${e}/{id}`,
        ]),
        "POST /api/channels/{id}/test",
        "GET /api/pricing",
        "POST /api/pricing",
        "PATCH /api/pricing/{id}",
        "POST /api/pricing/{id}/retire",
        "POST /api/pricing/reprice",
        "POST /api/pricing/import",
        "POST /api/pricing/spot-history",
        "GET /api/pricing/rates",
        "POST /api/pricing/rates",
        "POST /api/pricing/rates/import",
        "POST /api/pricing/rates/{id}/retire",
      ].sort(),
    );
  });

  it("derives parameters and bodies from the zod schemas", () => {
    const names = doc.paths["/api/alerts"]?.get?.parameters?.map((p) => p.name);
    expect(names).toEqual(["state", "kind", "team", "project", "hostId", "limit"]);
    expect(doc.paths["/api/budgets"]?.post?.requestBody).toBeDefined();
    expect(doc.components.schemas.AlertList).toBeDefined();
    expect(doc.paths["/api/alerts/bulk"]?.post?.requestBody).toBeDefined();
    expect(doc.components.schemas.AlertBulkResult).toBeDefined();
    expect(doc.components.schemas.RecommendationList).toBeDefined();
    expect(() => JSON.stringify(doc)).not.toThrow();
  });
});
