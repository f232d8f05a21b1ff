import {
  benchmarkImportResultSchema,
  benchmarkInputSchema,
  benchmarkListSchema,
  benchmarkSchema,
  CSV_HEADER,
} from "../benchmarks/schema.ts";
import { compareQuerySchema, compareResultSchema } from "./schema.ts";
import { schemaOf, ref, type JsonObject } from "../zod/openapi-parts.ts";

// OpenAPI path items of /api/compare and /api/benchmarks, from the zod schemas the routes validate
// with, for lib/openapi/openapi.ts to merge in (compareOpenApiPaths, compareOpenApiSchemas).

const body = (name: string, description: string) => ({
  description,
  content: { "application/json": { schema: ref(name) } },
});
const error = (description: string) => body("ApiError", description);

export function compareOpenApiSchemas(): JsonObject {
  return {
    CompareResult: schemaOf(compareResultSchema),
    Benchmark: schemaOf(benchmarkSchema),
    BenchmarkInput: schemaOf(benchmarkInputSchema, "input"),
    BenchmarkList: schemaOf(benchmarkListSchema),
    BenchmarkImportResult: schemaOf(benchmarkImportResultSchema),
  };
}

export function compareOpenApiPaths(): JsonObject {
  const month = schemaOf(compareQuerySchema, "input") as {
    properties?: Record<string, JsonObject>;
  };
  return {
    "/api/compare": {
      get: {
        summary:
          "Cross-cloud comparison (operator, finance): every offer in force per GPU model, cheapest per GPU-hour first, with $/dense-TFLOPS-hour, $/GB-hour and cost per unit of work where a benchmark exists; the month's GPU-hours (the caller's teams only) re-priced at the cheapest offer of each provider and pricing model",
        parameters: [
          { name: "month", in: "query", required: false, schema: month.properties?.month },
        ],
        responses: { "200": body("CompareResult", "OK"), "400": error("a malformed month") },
      },
    },
    "/api/benchmarks": {
      get: {
        summary:
          "Benchmark results per instance type, with cost per unit of work at today's prices",
        parameters: [],
        responses: { "200": body("BenchmarkList", "OK") },
      },
      post: {
        summary: "Add a benchmark result (operator, finance); audited",
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref("BenchmarkInput") } },
        },
        responses: {
          "201": body("Benchmark", "added"),
          "400": error("a field is missing or malformed (issues name it)"),
          "409": error("the same provider, instance type, workload, unit and source exists"),
          "413": error("the body is larger than 1 MiB"),
        },
      },
    },
    "/api/benchmarks/{id}": {
      delete: {
        summary: "Delete a result a person added (operator, finance); audited",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": body("Benchmark", "the deleted row"),
          "404": error("no such result"),
          "409": error("a shipped (published) result cannot be deleted"),
        },
      },
    },
    "/api/benchmarks/import": {
      post: {
        summary: `Import benchmark results from a CSV (operator, finance), the raw file as the body; header ${CSV_HEADER.join(",")}. A bad line refuses the whole file (400 naming the line) and nothing is written; otherwise rows are added or updated in one transaction and audited with the counts`,
        requestBody: {
          required: true,
          content: { "text/csv": { schema: { type: "string", description: "the CSV file" } } },
        },
        responses: {
          "200": body("BenchmarkImportResult", "added and updated counts"),
          "400": error("a bad line (issues name each line)"),
          "413": error("the body is larger than 1 MiB"),
          "415": error("not sent as text/csv"),
        },
      },
    },
  };
}
