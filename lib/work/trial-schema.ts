import { z } from "zod";
import { isoTimeSchema } from "../zod/schemas/common.ts";

// POST/GET /api/work/trials: trial rentals, one schema for the route, the page and OpenAPI.

export const trialInputSchema = z.strictObject({
  hostId: z.string().min(1).max(200),
  name: z
    .string()
    .trim()
    .min(1)
    .max(63)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
      error: "a name of letters, digits, '.', '_' or '-' (as a label value)",
    }),
  hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 31)
    .describe("the trial window from now, in hours (1 to 744)"),
});
export type TrialInput = z.output<typeof trialInputSchema>;

export const trialQuerySchema = z.strictObject({ host: z.string().min(1).max(200).optional() });

const comparisonSchema = z.object({
  provider: z.string(),
  instanceType: z.string(),
  hosts: z.number(),
  hours: z.number(),
  perMicros: z.string(),
  monthlySavingMicros: z.string(),
});

export const trialReportSchema = z.object({
  status: z.enum(["compared", "not_enough_data", "nothing_to_compare"]),
  hostname: z.string(),
  provider: z.string(),
  instanceType: z.string(),
  model: z.string().nullable(),
  unit: z.string().nullable(),
  per: z.string().nullable(),
  from: isoTimeSchema,
  to: isoTimeSchema,
  trial: z.object({ hours: z.number(), units: z.number(), perMicros: z.string().nullable() }),
  others: z.array(comparisonSchema),
  summary: z.string(),
});

export const trialSchema = z.object({
  id: z.string(),
  name: z.string(),
  hostId: z.string(),
  hostname: z.string(),
  instanceType: z.string(),
  startsAt: isoTimeSchema,
  endsAt: isoTimeSchema.nullable().describe("null: open while the host carries the trial label"),
  origin: z.string().describe("label | page | demo"),
  createdBy: z.string().nullable(),
  reportedAt: isoTimeSchema.nullable(),
  report: trialReportSchema.nullable(),
});
export type TrialDto = z.infer<typeof trialSchema>;
export const trialListSchema = z.object({ trials: z.array(trialSchema) });
