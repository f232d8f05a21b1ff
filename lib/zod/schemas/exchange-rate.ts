import { z } from "zod";
import {
  FIRST_YEAR,
  isDateInRange,
  isoTimeSchema,
  LAST_YEAR,
  rateValueSchema,
  requiredText,
  sourceDateSchema,
} from "./common.ts";

// Exchange rates as finance adds them (settings page and POST /api/pricing/rates): how many US
// dollars one unit of a currency was worth from a date on. Prices kept in that currency are
// converted at the rate in force at each hour (lib/pricing/fx.ts).

/**
 * The US dollars per unit a rate may be, per currency: a rate outside is a typing error (a rate
 * entered the wrong way round, a misplaced point), refused before it converts a single hour.
 * CNY traded between 6.0 and 8.3 per dollar from 2000 to 2026 (0.12 to 0.17 USD): the range
 * leaves more than a factor of two either way. Other currencies: at most 10 USD per unit (the
 * strongest traded currency, the Kuwaiti dinar, is about 3.3).
 */
export const RATE_BOUNDS: Record<string, { min: number; max: number }> = {
  CNY: { min: 0.05, max: 0.5 },
};
export const OTHER_RATE_BOUNDS = { min: 1e-12, max: 10 };

export const exchangeRateInputSchema = z
  .strictObject({
    currency: z
      .string({ error: "currency is required" })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, { error: "a three-letter ISO 4217 code, e.g. CNY" })
      .refine((c) => c !== "USD", {
        error: "USD needs no rate: prices in USD are used as they are",
      }),
    usdPerUnit: rateValueSchema,
    effectiveFrom: z
      .string({ error: "effective from is required" })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "a date, e.g. 2026-11-01 (UTC)", abort: true })
      .refine(isDateInRange, {
        error: `a real calendar date between ${FIRST_YEAR} and ${LAST_YEAR}`,
      })
      .transform((v) => new Date(`${v}T00:00:00Z`)),
    source: requiredText("source", 500),
    sourceDate: sourceDateSchema("the month or day it was read, e.g. 2026-11"),
  })
  .superRefine((r, ctx) => {
    if (!/^\d+(\.\d+)?$/.test(r.usdPerUnit)) return; // its own issue says why
    const { min, max } = RATE_BOUNDS[r.currency] ?? OTHER_RATE_BOUNDS;
    const v = Number(r.usdPerUnit);
    if (v < min || v > max) {
      ctx.addIssue({
        code: "custom",
        path: ["usdPerUnit"],
        message: `not a plausible rate: 1 ${r.currency} is worth between ${min} and ${max} USD`,
      });
    }
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
