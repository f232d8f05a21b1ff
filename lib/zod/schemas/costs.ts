import { z } from "zod";
import { isoTimeSchema, microsSchema } from "./common.ts";
import { monthSchema } from "./month.ts";

export const BREAKDOWN_DIMENSIONS = [
  "provider",
  "team",
  "project",
  "instanceType",
  "pricingModel",
] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export const breakdownRowSchema = z.object({
  key: z.string(),
  costMicros: microsSchema,
  idleMicros: microsSchema,
  upSeconds: z.number().int(),
  unpricedSeconds: z.number().int().describe("host up time with no price (cost unknown)"),
  hosts: z.number().int(),
});
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;

export const costInstanceRowSchema = z.object({
  month: monthSchema,
  hostId: z.string(),
  hostname: z.string(),
  provider: z.string(),
  instanceType: z.string(),
  region: z.string(),
  pricingModel: z.string(),
  team: z.string(),
  project: z.string(),
  upSeconds: z.number().int(),
  gpuSeconds: z.number().int(),
  costMicros: microsSchema,
  idleMicros: microsSchema,
  priced: z.enum(["yes", "no", "partial"]).describe("no: no hour of the month had a price"),
});
export type CostInstanceRow = z.infer<typeof costInstanceRowSchema>;

export const trendPointSchema = z.object({
  month: monthSchema,
  totalMicros: microsSchema,
  idleMicros: microsSchema,
});

export const costMonthSchema = z.object({
  month: monthSchema,
  from: isoTimeSchema.describe("month start, UTC"),
  to: isoTimeSchema.describe("next month's start, UTC (exclusive)"),
  generatedAt: isoTimeSchema,
  currency: z.string(),
  complete: z.boolean().describe("true once the month has ended"),
  totalMicros: microsSchema.describe("sum of priced ledger hours; every breakdown sums to it"),
  idleMicros: microsSchema,
  unpriced: z.object({ hosts: z.number().int(), upSeconds: z.number().int() }),
  unpricedNow: z
    .array(
      z.object({
        provider: z.string(),
        instanceType: z.string(),
        region: z.string(),
        pricingModel: z.string(),
        hosts: z.number().int(),
        gpuModel: z.string().nullable(),
        gpuCount: z.number().int().nullable(),
        reason: z.string(),
      }),
    )
    .describe(
      "hosts (in scope) that no catalogue price matches right now, by instance type: their hours will be unpriced until a price is added",
    ),
  dataFrom: isoTimeSchema.nullable().describe("first ledger hour in the month"),
  dataTo: isoTimeSchema.nullable().describe("end of the last ledger hour in the month"),
  budget: z
    .object({ name: z.string(), amountMicros: microsSchema, thresholds: z.array(z.number()) })
    .nullable(),
  forecast: z
    .object({ micros: microsSchema, basisDays: z.number() })
    .nullable()
    .describe("month-to-date ÷ elapsed × days in month; null before 3 days of data"),
  forecastNote: z.string(),
  breakdowns: z.object({
    provider: z.array(breakdownRowSchema),
    team: z.array(breakdownRowSchema),
    project: z.array(breakdownRowSchema),
    instanceType: z.array(breakdownRowSchema),
    pricingModel: z.array(breakdownRowSchema),
  }),
  instances: z.array(costInstanceRowSchema),
  trend: z.array(trendPointSchema).describe("the six months ending with this one, oldest first"),
});
export type CostMonth = z.infer<typeof costMonthSchema>;
