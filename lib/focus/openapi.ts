import { z } from "zod";
import { COLUMN_NAMES } from "./columns.ts";
import { focusQuerySchema, MAX_FOCUS_DAYS } from "./query.ts";

// The OpenAPI path item of GET /api/costs/focus, from the same zod schema the route validates
// with. Mount it in lib/openapi/openapi.ts's `paths` as `"/api/costs/focus": focusPathItem()`.

type JsonObject = Record<string, unknown>;

function parameters(): JsonObject[] {
  return Object.entries(focusQuerySchema.shape).map(([name, field]) => {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(field as z.ZodType, {
      io: "input",
      unrepresentable: "any",
    });
    return {
      name,
      in: "query",
      required: false,
      ...(typeof schema.description === "string" ? { description: schema.description } : {}),
      schema,
    };
  });
}

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
});

export function focusPathItem(): JsonObject {
  return {
    get: {
      summary:
        "The cost ledger as a FOCUS 1.2 dataset (CSV or Parquet), one row per host per hour or day",
      description: [
        `One UTC month (month=YYYY-MM, default the current one) or whole UTC days from..to (both`,
        `included, at most ${MAX_FOCUS_DAYS}). Hours without a catalogue price are left out and`,
        "counted in the x-gpufleet-unpriced-host-hours header. Team-limited users get their teams'",
        `hosts only. Columns: ${COLUMN_NAMES.join(", ")}.`,
      ].join(" "),
      parameters: parameters(),
      responses: {
        "200": {
          description: "the file, streamed, with a content-disposition file name",
          headers: {
            "x-gpufleet-unpriced-host-hours": {
              description: "host-hours left out for want of a price",
              schema: { type: "integer" },
            },
            "x-gpufleet-unpriced-up-seconds": {
              description: "their up time in seconds",
              schema: { type: "integer" },
            },
          },
          content: {
            "text/csv": { schema: { type: "string" } },
            "application/vnd.apache.parquet": { schema: { type: "string", format: "binary" } },
          },
        },
        "400": error("a query parameter is missing, unknown or malformed"),
        "401": error("not signed in"),
        "403": error("the role or token does not allow costs:read"),
        "500": error("unexpected server error"),
      },
    },
  };
}
