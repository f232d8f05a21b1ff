import { z } from "zod";
import {
  acknowledgeInputSchema,
  alertBulkInputSchema,
  alertBulkResultSchema,
  alertDetailSchema,
  alertListQuerySchema,
  alertListSchema,
  evaluateResultSchema,
  resolveInputSchema,
  snoozeInputSchema,
} from "../zod/schemas/alert.ts";
import {
  budgetInputSchema,
  budgetListSchema,
  budgetSchema,
  budgetUpdateSchema,
} from "../zod/schemas/budget.ts";
import {
  channelInputSchema,
  channelListSchema,
  channelSchema,
  channelTestResultSchema,
  channelUpdateSchema,
} from "../zod/schemas/channel.ts";
import {
  acceptInputSchema,
  dismissInputSchema,
  recommendationListQuerySchema,
  recommendationListSchema,
  recommendationSchema,
  recommendationSnoozeInputSchema,
  recomputeResultSchema,
} from "../zod/schemas/recommendation.ts";
import {
  priceInputSchema,
  priceUpdateSchema,
  pricingListQuerySchema,
  pricingListSchema,
  pricingRowSchema,
} from "../zod/schemas/pricing.ts";
import { pricingImportPathItem, pricingImportResultSchema } from "../pricing/import/openapi.ts";
import { spotHistoryPathItem } from "../pricing/spot-history-openapi.ts";
import { ratesUploadPathItem } from "../pricing/rates-upload-openapi.ts";
import {
  exchangeRateRetirePathItem,
  exchangeRateSchemas,
  exchangeRatesPathItem,
} from "../pricing/rates-openapi.ts";
import { repriceRequestSchema, repriceResultSchema } from "../zod/schemas/reprice.ts";
import {
  ruleInputSchema,
  ruleListSchema,
  ruleSchema,
  ruleUpdateSchema,
} from "../zod/schemas/rule.ts";
import { schemaOf, ok, err, body, type JsonObject } from "../zod/openapi-parts.ts";

// OpenAPI paths of the alerting API (alerts, recommendations, rules, budgets, channels) and of the
// pricing catalogue, from the
// same zod schemas the routes validate with. Merged into the document by lib/openapi/openapi.ts.

function queryParameters(schema: z.ZodObject): JsonObject[] {
  const json = schemaOf(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: s,
  }));
}

const id = (what: string) => ({
  name: "id",
  in: "path",
  required: true,
  description: `${what} id`,
  schema: { type: "string" },
});
const bad = { "400": err("invalid query or body (issues name the fields)") };
const missing = { "404": err("no such id") };
const conflict = { "409": err("not possible in the current state") };

function action(summary: string, input: z.ZodType, response: string, what: string) {
  return {
    post: {
      summary,
      parameters: [id(what)],
      requestBody: body(input),
      responses: { "200": ok(response), ...bad, ...missing, ...conflict },
    },
  };
}

function crud(entity: string, list: string, input: z.ZodType, update: z.ZodType) {
  return {
    collection: {
      get: { summary: `List ${entity}s`, responses: { "200": ok(list) } },
      post: {
        summary: `Create a ${entity}`,
        requestBody: body(input),
        responses: { "201": ok(cap(entity), "created"), ...bad, ...conflict },
      },
    },
    item: {
      get: {
        summary: `One ${entity}`,
        parameters: [id(entity)],
        responses: { "200": ok(cap(entity)), ...missing },
      },
      patch: {
        summary: `Change a ${entity} (fields left out keep their value; the result is validated whole)`,
        parameters: [id(entity)],
        requestBody: body(update),
        responses: { "200": ok(cap(entity)), ...bad, ...missing, ...conflict },
      },
      delete: {
        summary: `Delete a ${entity}`,
        parameters: [id(entity)],
        responses: { "204": { description: "deleted" }, ...missing },
      },
    },
  };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function alertingPaths(): JsonObject {
  const rules = crud("rule", "RuleList", ruleInputSchema, ruleUpdateSchema);
  const budgets = crud("budget", "BudgetList", budgetInputSchema, budgetUpdateSchema);
  const channels = crud("channel", "ChannelList", channelInputSchema, channelUpdateSchema);
  return {
    "/api/alerts": {
      get: {
        summary: "Alerts, newest first, filtered by state, kind and scope, with counts per state",
        parameters: queryParameters(alertListQuerySchema),
        responses: { "200": ok("AlertList"), ...bad },
      },
    },
    "/api/alerts/evaluate": {
      post: {
        summary: "Evaluate every enabled rule now",
        responses: { "200": ok("EvaluateResult") },
      },
    },
    "/api/alerts/bulk": {
      post: {
        summary:
          "Acknowledge, snooze (minutes) or resolve up to 500 alerts at once. Each alert is acted on as its own route would, with its own result: one in the wrong state, unknown, or outside a team-limited user's teams (reported as not found) fails alone. One audit entry names every id",
        requestBody: body(alertBulkInputSchema),
        responses: { "200": ok("AlertBulkResult"), ...bad },
      },
    },
    "/api/alerts/{id}": {
      get: {
        summary: "One alert with its state history and notifications (per attempt)",
        parameters: [id("alert")],
        responses: { "200": ok("AlertDetail"), ...missing },
      },
    },
    "/api/alerts/{id}/acknowledge": action(
      "Acknowledge a firing alert",
      acknowledgeInputSchema,
      "AlertDetail",
      "alert",
    ),
    "/api/alerts/{id}/snooze": action(
      "Snooze an alert until a time (or for N minutes): no notifications until then",
      snoozeInputSchema,
      "AlertDetail",
      "alert",
    ),
    "/api/alerts/{id}/resolve": action(
      "Resolve an alert by hand",
      resolveInputSchema,
      "AlertDetail",
      "alert",
    ),
    "/api/recommendations": {
      get: {
        summary: "Savings recommendations, highest monthly saving first (monthly = hourly × 730 h)",
        parameters: queryParameters(recommendationListQuerySchema),
        responses: { "200": ok("RecommendationList"), ...bad },
      },
    },
    "/api/recommendations/recompute": {
      post: {
        summary: "Recompute recommendations from the ledger now",
        responses: { "200": ok("RecomputeResult") },
      },
    },
    "/api/recommendations/{id}": {
      get: {
        summary: "One recommendation with its evidence",
        parameters: [id("recommendation")],
        responses: { "200": ok("Recommendation"), ...missing },
      },
    },
    "/api/recommendations/{id}/accept": action(
      "Accept",
      acceptInputSchema,
      "Recommendation",
      "recommendation",
    ),
    "/api/recommendations/{id}/dismiss": action(
      "Dismiss with a reason (never recreated)",
      dismissInputSchema,
      "Recommendation",
      "recommendation",
    ),
    "/api/recommendations/{id}/snooze": action(
      "Snooze until a time (or for N days)",
      recommendationSnoozeInputSchema,
      "Recommendation",
      "recommendation",
    ),
    "/api/recommendations/{id}/reopen": action(
      "Reopen a dismissed, accepted or snoozed recommendation",
      acceptInputSchema,
      "Recommendation",
      "recommendation",
    ),
    "/api/rules": rules.collection,
    "/api/rules/{id}": rules.item,
    "/api/budgets": budgets.collection,
    "/api/budgets/{id}": budgets.item,
    "/api/pricing": {
      get: {
        summary:
          "The pricing catalogue: the rows in force (with retired=include, also retired ones)",
        parameters: queryParameters(pricingListQuerySchema),
        responses: { "200": ok("PricingList"), ...bad },
      },
      post: {
        summary:
          "Add a price (finance). It prices ledger hours from now on; hours already written change only when the month is re-priced",
        requestBody: body(priceInputSchema),
        responses: { "201": ok("PricingRow", "created"), ...bad, ...conflict },
      },
    },
    "/api/pricing/{id}": {
      patch: {
        summary:
          "Change a price (fields left out keep their value; the result is validated whole). The row becomes the user's own: no release overwrites it. Audited with the row before and after",
        parameters: [id("price")],
        requestBody: body(priceUpdateSchema),
        responses: { "200": ok("PricingRow"), ...bad, ...missing, ...conflict },
      },
    },
    "/api/pricing/{id}/retire": {
      post: {
        summary:
          "Retire a price: it prices nothing from now on and stays listed (retired=include) for the record",
        parameters: [id("price")],
        responses: { "200": ok("PricingRow"), ...missing, ...conflict },
      },
    },
    "/api/pricing/reprice": {
      post: {
        summary:
          "Re-price a month's ledger hours with the catalogue in force (finance, fleet-wide). Without apply it previews the old and new totals and writes nothing; with apply and the previewed new total it writes (409 when prices changed since the preview). A closed month needs reopen: true; audited",
        requestBody: body(repriceRequestSchema),
        responses: { "200": ok("RepriceResult"), ...bad, ...conflict },
      },
    },
    "/api/pricing/import": pricingImportPathItem(),
    "/api/pricing/spot-history": spotHistoryPathItem(),
    "/api/pricing/rates": exchangeRatesPathItem(),
    "/api/pricing/rates/import": ratesUploadPathItem(),
    "/api/pricing/rates/{id}/retire": exchangeRateRetirePathItem(),
    "/api/channels": channels.collection,
    "/api/channels/{id}": channels.item,
    "/api/channels/{id}/test": {
      post: {
        summary: "Send a test message to the channel now (ok=false with the error when it fails)",
        parameters: [id("channel")],
        responses: { "200": ok("ChannelTestResult"), ...missing },
      },
    },
  };
}

export function alertingSchemas(): JsonObject {
  return {
    AlertList: schemaOf(alertListSchema),
    AlertDetail: schemaOf(alertDetailSchema),
    EvaluateResult: schemaOf(evaluateResultSchema),
    AlertBulkResult: schemaOf(alertBulkResultSchema),
    RecommendationList: schemaOf(recommendationListSchema),
    Recommendation: schemaOf(recommendationSchema),
    RecomputeResult: schemaOf(recomputeResultSchema),
    RuleList: schemaOf(ruleListSchema),
    Rule: schemaOf(ruleSchema),
    BudgetList: schemaOf(budgetListSchema),
    Budget: schemaOf(budgetSchema),
    PricingList: schemaOf(pricingListSchema),
    ...exchangeRateSchemas(),
    PricingRow: schemaOf(pricingRowSchema),
    RepriceResult: schemaOf(repriceResultSchema),
    PricingImportResult: pricingImportResultSchema(),
    ChannelList: schemaOf(channelListSchema),
    Channel: schemaOf(channelSchema),
    ChannelTestResult: schemaOf(channelTestResultSchema),
  };
}
