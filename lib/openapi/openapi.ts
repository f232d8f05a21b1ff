import { compareOpenApiPaths, compareOpenApiSchemas } from "../compare/openapi.ts";
import { workOpenApiPaths, workOpenApiSchemas } from "../work/openapi.ts";
import { focusPathItem } from "../focus/openapi.ts";
import { alertingPaths, alertingSchemas } from "./alerting.ts";
import { peoplePaths, peopleSchemas } from "./people.ts";
import { billingPaths, billingSchemas } from "../billing/openapi.ts";
import { policyPaths, policySchemas } from "../policies/openapi.ts";
import { apiErrorSchema } from "../zod/schemas/common.ts";
import { costMonthSchema } from "../zod/schemas/costs.ts";
import { holderSpendSchema } from "../zod/schemas/holder-spend.ts";
import {
  fleetGpuPageSchema,
  fleetGpuQuerySchema,
  fleetSummarySchema,
} from "../zod/schemas/fleet.ts";
import { instanceDetailSchema, instanceListSchema } from "../zod/schemas/instance.ts";
import { tableQuerySchema } from "../zod/schemas/instance-query.ts";
import { monthQuerySchema } from "../zod/schemas/month.ts";
import { rangeQuerySchema } from "../zod/schemas/range.ts";
import { fleetSeriesSchema, instanceSeriesSchema } from "../zod/schemas/series.ts";
import { ok, queryParameters, schemaOf, type JsonObject } from "../zod/openapi-parts.ts";

// The OpenAPI 3.1 document of the dashboard's JSON API, generated from the same zod schemas the
// routes validate with, so the document cannot drift from the code.

const idParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "instance (host) id",
  schema: { type: "string" },
};

const jsonResponse = (name: string, description: string) => ok(name, description);

const errors = {
  "400": jsonResponse("ApiError", "a query parameter is missing, unknown or malformed"),
  "500": jsonResponse("ApiError", "unexpected server error"),
};

function get(summary: string, response: string, parameters: JsonObject[], extra: JsonObject = {}) {
  return {
    get: {
      summary,
      parameters,
      responses: { "200": jsonResponse(response, "OK"), ...errors, ...extra },
    },
  };
}

export function openApiDocument(): JsonObject {
  const notFound = { "404": jsonResponse("ApiError", "no such instance") };
  const unavailable = { "503": jsonResponse("ApiError", "the metrics source did not answer") };
  return {
    openapi: "3.1.0",
    info: {
      title: "gpufleet dashboard API",
      version: "0.1.0",
      description:
        "Read API behind the gpufleet dashboard. Money is integer micro-units of the currency as a decimal string (1 USD = 1,000,000). Times are ISO 8601 UTC; month boundaries are UTC. Every route but /api/health, /api/openapi.json and /api/auth/* needs a session cookie (sign in at /sign-in) or an API token (Authorization: Bearer gft_…); 401 without one, 403 when the role or token scope does not allow the route. Changes made with a session cookie must come from the app's own origin.",
    },
    security: [{ bearer: [] }, { session: [] }],
    paths: {
      "/api/fleet": get(
        "Fleet headline figures, aggregates per team, provider, GPU model and state, and the GPUs that need attention (the first of them; the rest and each group's GPUs from /api/fleet/gpus)",
        "FleetSummary",
        [],
      ),
      "/api/fleet/gpus": get(
        "One page of the GPUs of a group, or of the problem list (most urgent first)",
        "FleetGpuPage",
        queryParameters(fleetGpuQuerySchema),
      ),
      "/api/fleet/series": get(
        "Fleet utilization over a range (≤ 600 points per series)",
        "FleetSeries",
        queryParameters(rangeQuerySchema),
        unavailable,
      ),
      "/api/instances": get(
        "Instances with live GPU figures and price, filtered and sorted",
        "InstanceList",
        queryParameters(tableQuerySchema),
      ),
      "/api/instances/{id}": get(
        "One instance: GPUs, MIG slices, processes and cost",
        "InstanceDetail",
        [idParameter],
        notFound,
      ),
      "/api/instances/{id}/series": get(
        "Per-GPU utilization, memory, power, temperature and SM clock over a range",
        "InstanceSeries",
        [idParameter, ...queryParameters(rangeQuerySchema)],
        { ...notFound, ...unavailable },
      ),
      "/api/costs": get(
        "Spend of a UTC month: totals, breakdowns, budget, forecast, instances, 6-month trend",
        "CostMonth",
        queryParameters(monthQuerySchema),
      ),
      "/api/costs/holders": get(
        "Spend and idle spend by holder for a month (who holds idle GPUs); names per the viewer",
        "HolderSpend",
        queryParameters(monthQuerySchema),
      ),
      "/api/costs/holders.csv": {
        get: {
          summary: "The by-holder table as CSV, formula-like cells escaped, ending in a total row",
          parameters: queryParameters(monthQuerySchema),
          responses: {
            "200": {
              description:
                "CSV with header month,holder,held,gpu_hours,idle_gpu_hours,longest_idle_hours,currency,cost,idle_cost,cost_rounded,idle_cost_rounded",
              content: { "text/csv": { schema: { type: "string" } } },
            },
            ...errors,
          },
        },
      },
      "/api/costs/export.csv": {
        get: {
          summary: "The costs page's instance table as CSV: one row per instance per month",
          parameters: queryParameters(monthQuerySchema),
          responses: {
            "200": {
              description:
                "CSV with header month,host_id,hostname,provider,instance_type,region,pricing_model,team,project,up_hours,gpu_hours,currency,cost,idle_cost,priced; money as plain decimals, empty when unpriced",
              content: { "text/csv": { schema: { type: "string" } } },
            },
            ...errors,
          },
        },
      },
      "/api/costs/focus": focusPathItem(),
      ...alertingPaths(),
      ...peoplePaths(),
      ...policyPaths(),
      ...billingPaths(),
      ...compareOpenApiPaths(),
      ...workOpenApiPaths(),
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "an API token made by an admin" },
        session: { type: "apiKey", in: "cookie", name: "gpufleet.session_token" },
      },
      schemas: {
        ApiError: schemaOf(apiErrorSchema),
        FleetSummary: schemaOf(fleetSummarySchema),
        FleetGpuPage: schemaOf(fleetGpuPageSchema),
        FleetSeries: schemaOf(fleetSeriesSchema),
        InstanceList: schemaOf(instanceListSchema),
        InstanceDetail: schemaOf(instanceDetailSchema),
        InstanceSeries: schemaOf(instanceSeriesSchema),
        CostMonth: schemaOf(costMonthSchema),
        HolderSpend: schemaOf(holderSpendSchema),
        ...alertingSchemas(),
        ...peopleSchemas(),
        ...policySchemas(),
        ...billingSchemas(),
        ...compareOpenApiSchemas(),
        ...workOpenApiSchemas(),
      },
    },
  };
}
