import { err, queryParameters, type JsonObject } from "../zod/openapi-parts.ts";
import { SPOT_UPLOAD_MAX_BYTES, spotImportQuerySchema } from "./spot-history.ts";

// The spot price history upload's OpenAPI path item (app/api/pricing/spot-history), from the zod
// schema the route validates its query with; lib/openapi/alerting.ts merges it in.

export function spotHistoryPathItem(): JsonObject {
  return {
    post: {
      summary: `Import AWS spot price history (finance): the JSON \`aws ec2 describe-spot-price-history\` prints, sent raw as the body (at most ${SPOT_UPLOAD_MAX_BYTES / 2 ** 20} MiB; larger sets are for npm run spot:import). Only Linux/UNIX records are kept, others counted and skipped. mode=preview writes nothing; mode=apply stores the records in one transaction and is audited. Spot hours are then priced at their zone's market price; past months change when re-priced`,
      parameters: queryParameters(spotImportQuerySchema),
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: { type: "string", description: "describe-spot-price-history output" },
          },
        },
      },
      responses: {
        "200": {
          description:
            "what was (or, in a preview, would be) added: added, unchanged, records read, kept, repeated and skipped per product, and summary lines",
          content: { "application/json": { schema: { type: "object" } } },
        },
        "400": err("a malformed file (each bad record named by its index) or query"),
        "409": err("records already stored at another price: nothing written"),
        "413": err("the body is larger than the upload cap"),
        "415": err("a body that is not application/json"),
      },
    },
  };
}
