import { schemaOf, ref, type JsonObject } from "../zod/openapi-parts.ts";
import { WORK_CSV_COLUMNS } from "./csv.ts";
import { unitCostQuerySchema, unitCostResultSchema } from "./schema.ts";
import { trialInputSchema, trialListSchema, trialSchema } from "./trial-schema.ts";

// OpenAPI path items of /api/work/*, from the zod schemas the routes validate with, for
// lib/openapi/openapi.ts to merge in.

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("ApiError") } },
});

function queryParameters(): JsonObject[] {
  const q = schemaOf(unitCostQuerySchema, "input") as { properties?: Record<string, JsonObject> };
  return Object.entries(q.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    schema,
  }));
}

export function workOpenApiSchemas(): JsonObject {
  return {
    UnitCostResult: schemaOf(unitCostResultSchema),
    Trial: schemaOf(trialSchema),
    TrialList: schemaOf(trialListSchema),
    TrialInput: schemaOf(trialInputSchema, "input"),
  };
}

export function workOpenApiPaths(): JsonObject {
  const errors = {
    "400": error("a malformed month or split"),
    "404": error("the host is not in the caller's scope"),
  };
  return {
    "/api/work/unit-costs": {
      get: {
        summary:
          "Measured cost per unit of work (finance, admin): per host and per instance type and model, the work the hosts' own counters counted (tokens, requests, samples…) against the ledger's cost of the same hours, idle hours included; the caller's teams only",
        parameters: queryParameters(),
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: ref("UnitCostResult") } },
          },
          ...errors,
        },
      },
    },
    "/api/work/trials": {
      get: {
        summary:
          "Trial rentals of the caller's teams' hosts (finance, admin), with each finished trial's report: its measured cost per unit of work against the types already running the same model",
        parameters: [
          {
            name: "host",
            in: "query",
            required: false,
            schema: { type: "string", description: "one host's id" },
          },
        ],
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: ref("TrialList") } },
          },
          "400": error("an unknown parameter"),
        },
      },
      post: {
        summary:
          "Mark a host as a trial for the next N hours (operator, finance); the report is computed when the window ends and becomes a recommendation when the trial's type is cheaper per unit of work; audited. A host labelled gpufleet.io/trial=<name> is a trial while the label is there",
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref("TrialInput") } },
        },
        responses: {
          "201": {
            description: "created",
            content: { "application/json": { schema: ref("Trial") } },
          },
          "400": error("a field is missing or malformed (issues name it)"),
          "404": error("the host is not in the caller's scope"),
          "409": error("the host already has a trial of that name"),
          "413": error("the body is larger than 1 MiB"),
        },
      },
    },
    "/api/work/unit-costs.csv": {
      get: {
        summary: `The same by instance type and model as CSV; header ${WORK_CSV_COLUMNS.join(",")}; cells starting with a formula character are escaped`,
        parameters: queryParameters(),
        responses: {
          "200": { description: "CSV", content: { "text/csv": { schema: { type: "string" } } } },
          ...errors,
        },
      },
    },
  };
}
