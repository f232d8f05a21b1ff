import { z } from "zod";

// The pieces every part of the OpenAPI document is written with (lib/openapi assembles the
// document from the features' parts): a zod schema as JSON Schema, a reference to a named schema,
// a JSON answer, an error answer and a JSON request body.

export type JsonObject = Record<string, unknown>;

/** A zod schema as JSON Schema: its output (answers) or input (bodies, queries) side. */
export function schemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON answer whose body is the named schema. */
export const ok = (name: string, description = "OK") => ({
  description,
  content: { "application/json": { schema: ref(name) } },
});

/** An error answer: the API's one error shape {error, code, issues?}. */
export const err = (description: string) => ok("ApiError", description);

/** A required JSON request body, validated by `schema`. */
export const body = (schema: z.ZodType) => ({
  required: true,
  content: { "application/json": { schema: schemaOf(schema, "input") } },
});

/** Query parameters of a z.object schema, as OpenAPI parameter objects. */
export function queryParameters(schema: z.ZodObject): JsonObject[] {
  const json = schemaOf(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    schema: s,
  }));
}
