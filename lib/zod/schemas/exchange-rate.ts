import { z } from "zod";
import { isoTimeSchema, requiredText, sourceDateSchema } from "./common.ts";

// Exchange rates as finance adds them (settings page and POST /api/pricing/rates): how many US
// dollars one unit of a currency was worth from a date on. Prices kept in that currency are
// converted at the rate in force at each hour (lib/pricing/fx.ts).

export const exchangeRateInputSchema = z.strictObject({
  currency: z
    .string({ error: "currency is required" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { error: "a three-letter ISO 4217 code, e.g. CNY" })
    .refine((c) => c !== "USD", { error: "USD needs no rate: prices in USD are used as they are" }),
  usdPerUnit: z
    .string({ error: "the rate is required" })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,12})?$/, {
      error: "US dollars per one unit, a plain decimal with at most 12 places, e.g. 0.13748728",
    })
    .refine((v) => /[1-9]/.test(v), { error: "the rate must be more than 0" }),
  effectiveFrom: z
    .string({ error: "effective from is required" })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "a date, e.g. 2026-11-01 (UTC)" })
    .transform((v, ctx) => {
      const d = new Date(`${v}T00:00:00Z`);
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
        ctx.addIssue({ code: "custom", message: "a real calendar date" });
        return z.NEVER;
      }
      return d;
    }),
  source: requiredText("source", 500),
  sourceDate: sourceDateSchema("the month or day it was read, e.g. 2026-11"),
});
export type ExchangeRateInput = z.output<typeof exchangeRateInputSchema>;

export const exchangeRateRowSchema = z.object({
  id: z.string(),
  currency: z.string(),
  usdPerUnit: z.string().describe("US dollars per one unit of the currency, exact decimal"),
  effectiveFrom: isoTimeSchema,
  source: z.string(),
  sourceDate: z.string(),
  origin: z.enum(["shipped", "user"]),
  updatedBy: z.string().nullable(),
});
export type ExchangeRateDto = z.infer<typeof exchangeRateRowSchema>;
export const exchangeRateListSchema = z.object({ rows: z.array(exchangeRateRowSchema) });
