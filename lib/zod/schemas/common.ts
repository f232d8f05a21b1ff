import { z } from "zod";

/** Integer micro-dollars as a decimal string (BigInt does not survive JSON). */
export const microsSchema = z
  .string()
  .regex(/^-?\d+$/)
  .describe("integer micro-units of the currency (1 USD = 1,000,000), as a decimal string");

export const isoTimeSchema = z.iso.datetime({ offset: true }).describe("ISO 8601 UTC time");

export const apiErrorSchema = z
  .object({
    error: z.string().describe("what went wrong, for people"),
    code: z
      .string()
      .describe("stable code for programs: bad_request, invalid_input, unauthorized, forbidden, …"),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe("present on 400: which parameter was wrong"),
  })
  .describe("error body returned with every 4xx/5xx");
export type ApiError = z.infer<typeof apiErrorSchema>;

export const sourceHealthSchema = z.object({
  mode: z.enum(["embedded", "prometheus"]),
  ok: z.boolean(),
  lastSuccess: isoTimeSchema.nullable().describe("last time the metrics source answered"),
  error: z.string().nullable(),
  stale: z.boolean().describe("true when the newest data is older than two scrape intervals"),
});
export type SourceHealthDto = z.infer<typeof sourceHealthSchema>;

/** Required free text, trimmed, at most `max` characters, no control characters. */
export const requiredText = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(max, { error: `at most ${max} characters` })
    .regex(/^[^\p{Cc}]*$/u, { error: "no control characters" });

/** The years a price, a rate or a figure may be dated in: anything outside is a typing error. */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2100;

/** Whether a YYYY-MM or YYYY-MM-DD text is a real month or day within FIRST_YEAR..LAST_YEAR. */
export function isDateInRange(text: string): boolean {
  const d = new Date(`${text.length === 7 ? `${text}-01` : text}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, text.length === 7 ? 7 : 10) !== text) {
    return false;
  }
  const year = d.getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

/** When a figure was read or published: a month or a day, e.g. "2025-06" or "2025-06-05". */
export const sourceDateSchema = (hint: string) =>
  z
    .string({ error: "source date is required" })
    .trim()
    .regex(/^\d{4}-\d{2}(-\d{2})?$/, { error: hint, abort: true })
    .refine(isDateInRange, {
      error: `a real month or day between ${FIRST_YEAR} and ${LAST_YEAR}`,
    });

/**
 * A positive decimal as typed or imported, exact (no floating point): at most `integerDigits`
 * digits before the point and `decimals` after it. Every amount of money and every exchange rate
 * comes in through one of the two below, whatever the path (form, API, price-list import, CSV
 * template, rates).
 */
export const positiveDecimal = (o: {
  integerDigits: number;
  decimals: number;
  format: string;
  zero: string;
}) =>
  z
    .string({ error: o.format })
    .trim()
    .regex(new RegExp(`^\\d{1,${o.integerDigits}}(\\.\\d{1,${o.decimals}})?$`), {
      error: o.format,
      abort: true,
    })
    .refine((v) => /[1-9]/.test(v), { error: o.zero });

/**
 * A positive USD amount: "12000", "12000.50". Six decimals because the store keeps micro-dollars;
 * at most twelve integer digits (under a trillion dollars) because micro-dollars live in a signed
 * 64-bit integer, and ledger sums of such amounts must still fit.
 */
export const amountSchema = positiveDecimal({
  integerDigits: 12,
  decimals: 6,
  format: "amount in dollars, e.g. 12000 or 12000.50",
  zero: "amount must be more than 0",
});

/** US dollars per one unit of a currency: "0.13748728" (at most twelve decimals, kept exactly). */
export const rateValueSchema = positiveDecimal({
  integerDigits: 6,
  decimals: 12,
  format: "US dollars per one unit, a plain decimal with at most 12 places, e.g. 0.13748728",
  zero: "the rate must be more than 0",
});

/** An optional note: trimmed, at most 500 characters, no control characters; empty is null. */
export const noteSchema = z
  .string()
  .trim()
  .max(500, { error: "at most 500 characters" })
  .regex(/^[^\p{Cc}]*$/u, { error: "no control characters" })
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * Where a price or a file came from, as a link: http or https only (a `javascript:` or `data:`
 * address shown as a link would run or render whatever it holds).
 */
export const httpUrlSchema = z
  .url({ protocol: /^https?$/, error: "an http or https URL, e.g. https://example.com/prices" })
  .max(300, { error: "at most 300 characters" });
