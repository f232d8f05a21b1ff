import { z } from "zod";

/** A calendar month in UTC, "YYYY-MM". */
export const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "month must be YYYY-MM, e.g. 2026-11" })
  .describe("calendar month, UTC boundaries");

export const monthQuerySchema = z.strictObject({ month: monthSchema.optional() });
