import { describe, expect, it } from "vitest";
import { pricingImportPathItem, pricingImportResultSchema } from "./openapi.ts";

describe("the upload route's OpenAPI path item", () => {
  it("derives the query parameters and the answer from the zod schemas", () => {
    const item = pricingImportPathItem() as {
      post: {
        parameters: { name: string; required: boolean }[];
        responses: Record<string, unknown>;
      };
    };
    expect(item.post.parameters.map((p) => `${p.name}${p.required ? "!" : ""}`)).toEqual([
      "provider!",
      "file",
      "sourceDate",
      "sourceUrl",
      "mode",
    ]);
    expect(Object.keys(item.post.responses).sort()).toEqual(["200", "400", "413", "415"]);
    const result = pricingImportResultSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(result.properties)).toContain("conflicts");
    expect(() => JSON.stringify(item)).not.toThrow();
  });
});
