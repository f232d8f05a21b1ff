import {
  exchangeRateInputSchema,
  exchangeRateListSchema,
  exchangeRateRowSchema,
} from "../zod/schemas/exchange-rate.ts";
import { schemaOf, type JsonObject } from "../zod/openapi-parts.ts";

// The exchange-rate routes' OpenAPI path item, from the zod schemas the route validates with, for
// lib/openapi/alerting.ts to merge in: `"/api/pricing/rates": exchangeRatesPathItem()` and
// the component schemas `exchangeRateSchemas()` returns.

export function exchangeRateSchemas(): JsonObject {
  return {
    ExchangeRateList: schemaOf(exchangeRateListSchema),
    ExchangeRate: schemaOf(exchangeRateRowSchema),
  };
}

export function exchangeRatesPathItem(): JsonObject {
  const ref = (name: string, description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  });
  return {
    get: {
      summary:
        "Exchange rates (finance): US dollars per one unit of a currency from a date on. Prices kept in that currency (CNY) are converted at the rate in force at each hour",
      responses: { "200": ref("ExchangeRateList", "every rate, by currency, newest first") },
    },
    post: {
      summary:
        "Add an exchange rate (finance). It converts ledger hours from its date on when they are written or re-priced; audited",
      requestBody: {
        required: true,
        content: { "application/json": { schema: schemaOf(exchangeRateInputSchema, "input") } },
      },
      responses: {
        "201": ref("ExchangeRate", "created"),
        "403": ref("ApiError", "a team-limited account: rates are fleet-wide"),
        "400": ref("ApiError", "a malformed rate, currency or date (issues name the field)"),
        "409": ref("ApiError", "a rate for this currency and date already exists"),
      },
    },
  };
}

export function exchangeRateRetirePathItem(): JsonObject {
  const ref = (name: string, description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  });
  return {
    post: {
      summary:
        "Retire an exchange rate a person added (finance without a team limit): it converts nothing from now on, and a corrected rate may be added for the same day. The audit entry keeps the rate",
      parameters: [
        {
          name: "id",
          in: "path",
          required: true,
          schema: { type: "string" },
          description: "the rate's id",
        },
      ],
      responses: {
        "200": ref("ExchangeRate", "the retired rate"),
        "403": ref("ApiError", "a team-limited account: rates are fleet-wide"),
        "404": ref("ApiError", "no such rate"),
        "409": ref("ApiError", "a shipped rate: add a later one to replace it"),
      },
    },
  };
}
