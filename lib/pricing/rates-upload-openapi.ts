import { err, queryParameters, schemaOf, type JsonObject } from "../zod/openapi-parts.ts";
import {
  RATES_UPLOAD_MAX_BYTES,
  ratesUploadQuerySchema,
  ratesUploadResultSchema,
} from "./rates-upload.ts";

// The exchange-rate upload's OpenAPI path item (app/api/pricing/rates/import), from the zod
// schemas the route validates its query with and answers in; lib/openapi/alerting.ts merges it in.

export function ratesUploadPathItem(): JsonObject {
  return {
    post: {
      summary: `Import exchange rates (finance) from a Federal Reserve H.10/G.5 CSV as the Data Download Program writes it (labels included, series in columns), sent raw as the body (at most ${RATES_UPLOAD_MAX_BYTES / 2 ** 20} MiB). Daily series apply from their day, monthly averages from the first of their month; ND days are skipped. mode=preview writes nothing; mode=apply (finance without a team limit) adds the new rates in one transaction and is audited. A day already stored at another figure is reported as a conflict and left as it is. Past months change when re-priced`,
      parameters: queryParameters(ratesUploadQuerySchema),
      requestBody: {
        required: true,
        content: { "text/csv": { schema: { type: "string", description: "the H.10/G.5 CSV" } } },
      },
      responses: {
        "200": {
          description:
            "what was (or, in a preview, would be) added: counts, conflicts left as they are, the series read and summary lines",
          content: { "application/json": { schema: schemaOf(ratesUploadResultSchema, "output") } },
        },
        "400": err('a malformed file (issues name each bad line: path "line 8") or query'),
        "403": err("a team-limited account applying: rates are fleet-wide"),
        "413": err("the body is larger than the upload cap"),
        "415": err("a body that is not text/csv"),
      },
    },
  };
}
