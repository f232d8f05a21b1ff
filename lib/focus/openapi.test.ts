import { describe, expect, it } from "vitest";
import { focusPathItem } from "./openapi.ts";

describe("focusPathItem", () => {
  it("documents the query from the route's own schema and both content types", () => {
    const item = focusPathItem() as {
      get: {
        parameters: { name: string; schema: { enum?: string[]; default?: string } }[];
        responses: Record<string, { content?: Record<string, unknown> }>;
      };
    };
    const params = item.get.parameters;
    expect(params.map((p) => p.name)).toEqual(["format", "granularity", "month", "from", "to"]);
    expect(params[0]?.schema).toMatchObject({ enum: ["csv", "parquet"], default: "csv" });
    expect(Object.keys(item.get.responses["200"]?.content ?? {})).toEqual([
      "text/csv",
      "application/vnd.apache.parquet",
    ]);
    expect(() => JSON.stringify(item)).not.toThrow();
  });
});
