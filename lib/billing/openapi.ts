import {
  billImportQuerySchema,
  billImportReportSchema,
  reconcileQuerySchema,
  reconciliationSchema,
} from "../zod/schemas/billing.ts";
import { body, err, ok, queryParameters, schemaOf, type JsonObject } from "../zod/openapi-parts.ts";
import { repriceRequestSchema } from "../zod/schemas/reprice.ts";

// OpenAPI paths of the billing API (issue 26), from the zod schemas the routes validate with.
// Merged into the document by lib/openapi/openapi.ts.

const fleetWide = err("a user limited to some teams (the bill covers the whole account)");

export function billingPaths(): JsonObject {
  return {
    "/api/billing/import": {
      post: {
        summary:
          "Import a cloud bill (finance; no team limit): FOCUS 1.0–1.2, AWS CUR 2.0, Alibaba or " +
          "Tencent bill details, as CSV, gzip CSV or Parquet. mode=preview reads and counts; " +
          "mode=apply keeps the GPU-instance lines (audited) and replaces an earlier import of the " +
          "same providers and month",
        parameters: queryParameters(billImportQuerySchema),
        requestBody: {
          required: true,
          description: "the raw export file, up to 512 MiB",
          content: {
            "text/csv": { schema: { type: "string" } },
            "application/gzip": { schema: { type: "string", format: "binary" } },
            "application/vnd.apache.parquet": { schema: { type: "string", format: "binary" } },
          },
        },
        responses: {
          "200": ok("BillImportReport"),
          "400": err("the file is not a bill of a known format (the message names the line)"),
          "403": fleetWide,
          "413": err("the body is larger than 512 MiB"),
          "415": err("not a CSV, gzip or Parquet body"),
        },
      },
    },
    "/api/billing/reconcile": {
      get: {
        summary:
          "A month's ledger estimate beside the imported bills (finance; no team limit): variance " +
          "per host, team, provider and pricing model with reasons, the GPU instances nobody " +
          "monitors and the hosts no bill mentions",
        parameters: queryParameters(reconcileQuerySchema),
        responses: {
          "200": ok("Reconciliation"),
          "400": err("a bad month"),
          "403": fleetWide,
        },
      },
    },
    "/api/billing/actuals": {
      post: {
        summary:
          "Re-price a month's ledger from its imported bills (actuals; finance, no team limit): " +
          "each host-hour matched to billed lines takes their effective cost, its list estimate " +
          "kept beside; other hours keep the list price. The catalogue re-pricing's body and " +
          "answer (source: bill): without apply a preview of the old and new totals that writes " +
          "nothing; with apply and the previewed new total it writes (409 when the bill or the " +
          "ledger changed since). A closed month needs reopen: true; audited",
        requestBody: body(repriceRequestSchema),
        responses: {
          "200": ok("RepriceResult"),
          "400": err("a bad month or body"),
          "403": fleetWide,
          "409": err("stale preview, a closed month without reopen, or a re-pricing under way"),
        },
      },
    },
    "/api/billing/reconcile.csv": {
      get: {
        summary: "The month's reconciliation per host as CSV (formula cells escaped)",
        parameters: queryParameters(reconcileQuerySchema),
        responses: {
          "200": { description: "CSV", content: { "text/csv": { schema: { type: "string" } } } },
          "400": err("a bad month"),
          "403": fleetWide,
        },
      },
    },
  };
}

export function billingSchemas(): JsonObject {
  return {
    BillImportReport: schemaOf(billImportReportSchema),
    Reconciliation: schemaOf(reconciliationSchema),
  };
}
