import { importQuerySchema, importResultSchema, MAX_UPLOAD_BYTES } from "./schema.ts";
import { err, queryParameters, schemaOf, type JsonObject } from "../../zod/openapi-parts.ts";

// The upload route's OpenAPI path item, from the same zod schemas the route validates with, for
// lib/openapi/alerting.ts to merge in: `"/api/pricing/import": pricingImportPathItem()` and
// `PricingImportResult: pricingImportResultSchema()` among its component schemas.

export function pricingImportResultSchema(): JsonObject {
  return schemaOf(importResultSchema);
}

export function pricingImportPathItem(): JsonObject {
  return {
    post: {
      summary: `Import GPU prices from one price-list file (finance): an AWS offer file excerpt (JSON or CSV), an Azure Retail Prices page, a GCP Billing Catalog SKU page, or the Alibaba/Tencent CSV template, sent raw as the body (at most ${MAX_UPLOAD_BYTES / 2 ** 20} MiB; full AWS offer files are for npm run pricing:import). mode=preview writes nothing; mode=apply adds new rows in one transaction and is audited with the counts. Rows already priced differently are conflicts, never overwritten`,
      parameters: queryParameters(importQuerySchema),
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: { type: "string", description: "the price-list file" } },
          "text/csv": { schema: { type: "string", description: "the price-list file" } },
        },
      },
      responses: {
        "200": {
          description: "what was (or, in a preview, would be) added",
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/PricingImportResult" } },
          },
        },
        "400": err("a malformed file (the message names the line or key) or query"),
        "413": err("the body is larger than the upload cap"),
        "415": err("a content type the provider's price list does not come in"),
      },
    },
  };
}
