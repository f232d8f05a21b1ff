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
