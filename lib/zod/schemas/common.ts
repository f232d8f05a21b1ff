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

/** When a figure was read or published: a month or a day, e.g. "2025-06" or "2025-06-05". */
export const sourceDateSchema = (hint: string) =>
  z
    .string({ error: "source date is required" })
    .trim()
    .regex(/^\d{4}-\d{2}(-\d{2})?$/, { error: hint });

/** An optional note: trimmed, at most 500 characters, no control characters; empty is null. */
export const noteSchema = z
  .string()
  .trim()
  .max(500, { error: "at most 500 characters" })
  .regex(/^[^\p{Cc}]*$/u, { error: "no control characters" })
  .nullish()
  .transform((v) => (v ? v : null));
