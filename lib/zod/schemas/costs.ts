import { z } from "zod";
import { isoTimeSchema, microsSchema } from "./common.ts";
import { monthSchema } from "./month.ts";
import { priceNotesSchema } from "./price-notes.ts";

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
  displayCostMicros: microsSchema.describe(
    "costMicros rounded to the cent so the rows add up to the displayed total (largest remainder)",
  ),
  displayIdleMicros: microsSchema.describe(
    "idleMicros rounded to the cent so the rows add up to the displayed idle total (largest remainder)",
  ),
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
  displayCostMicros: microsSchema.describe(
    "costMicros rounded to the cent so the rows add up to the displayed total (largest remainder)",
  ),
  displayIdleMicros: microsSchema.describe(
    "idleMicros rounded to the cent so the rows add up to the displayed idle total (largest remainder)",
  ),
  priced: z.enum(["yes", "no", "partial"]).describe("no: no hour of the month had a price"),
});
export type CostInstanceRow = z.infer<typeof costInstanceRowSchema>;

export const trendPointSchema = z.object({
  month: monthSchema,
  totalMicros: microsSchema,
  idleMicros: microsSchema,
  displayTotalMicros: microsSchema.describe("the month's total rounded once to the cent (half-up)"),
  displayIdleMicros: microsSchema.describe("the month's idle total rounded once to the cent"),
});

export const forecastBasisSchema = z
  .object({
    monthToDateMicros: microsSchema.describe("the exact spend the forecast extrapolates"),
    dataFrom: isoTimeSchema.describe("start of the data span (the month start, or later)"),
    asOf: isoTimeSchema.describe("end of the data span: the end of the last ledger hour"),
    dataSeconds: z.number().int().describe("asOf − dataFrom: the time the spend covers"),
    remainingSeconds: z.number().int().describe("month end − asOf"),
    monthSeconds: z.number().int().describe("the whole month's length"),
  })
  .describe(
    "forecast = monthToDate + monthToDate × remainingSeconds ÷ dataSeconds, rounded half-up to the micro",
  );

export const costMonthSchema = z.object({
  month: monthSchema,
  from: isoTimeSchema.describe("month start, UTC"),
  to: isoTimeSchema.describe("next month's start, UTC (exclusive)"),
  generatedAt: isoTimeSchema,
  currency: z.string(),
  complete: z.boolean().describe("true once the month has ended"),
  totalMicros: microsSchema.describe("sum of priced ledger hours; every breakdown sums to it"),
  idleMicros: microsSchema,
  displayTotalMicros: microsSchema.describe(
    "totalMicros rounded once to the cent (half-up); every breakdown's displayCostMicros sum to it",
  ),
  displayIdleMicros: microsSchema.describe(
    "idleMicros rounded once to the cent; every breakdown's displayIdleMicros sum to it",
  ),
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
  priceNotes: priceNotesSchema
    .optional()
    .describe(
      "the catalogue rows behind the month's hours (stale ones, fallbacks) and the hosts priced in another currency with their rates",
    ),
  dataFrom: isoTimeSchema.nullable().describe("first ledger hour in the month"),
  dataTo: isoTimeSchema.nullable().describe("end of the last ledger hour in the month"),
  budget: z
    .object({ name: z.string(), amountMicros: microsSchema, thresholds: z.array(z.number()) })
    .nullable(),
  forecast: z
    .object({
      micros: microsSchema,
      basisDays: z.number().describe("dataSeconds in days, rounded to 0.1 (display only)"),
      basis: forecastBasisSchema,
    })
    .nullable()
    .describe(
      "month-to-date extrapolated at its rate over the data span to the month end; null before 3 days of data",
    ),
  forecastNote: z
    .string()
    .describe(
      "the forecast's basis, or why there is none; for an ended month, whether its total is final",
    ),
  coverageNote: z
    .string()
    .nullable()
    .describe(
      'set when the ledger data starts after the month\'s first hour or (once it ended) stops before its last: "data from Oct 1 18:00 UTC"',
    ),
  actuals: z
    .object({
      hours: z.number().int().describe("host-hours in the month's ledger"),
      actualHours: z
        .number()
        .int()
        .describe("of them, costed from the imported bills; the rest are list estimates"),
      actualMicros: microsSchema.describe("the cost of the hours on actuals (part of the total)"),
    })
    .describe(
      "how much of the month is actual (re-priced from the bills): the total, breakdowns, budget and forecast use the actuals where they exist",
    ),
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
