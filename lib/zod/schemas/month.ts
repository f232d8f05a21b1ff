import { z } from "zod";

/** Months the ledger can hold: before 2000 there were no cloud GPUs, after 2100 is a typo. */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;

/** A calendar month in UTC, "YYYY-MM", with a year from 2000 to 2100. */
export const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "month must be YYYY-MM, e.g. 2026-11" })
  .refine(
    (m) => {
      const year = Number(m.slice(0, 4));
      return year >= MIN_YEAR && year <= MAX_YEAR;
    },
    { error: `month must be between ${MIN_YEAR}-01 and ${MAX_YEAR}-12` },
  )
  .describe("calendar month, UTC boundaries");

export const monthQuerySchema = z.strictObject({ month: monthSchema.optional() });
