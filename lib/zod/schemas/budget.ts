import { z } from "zod";
import { amountSchema, isoTimeSchema, microsSchema } from "./common.ts";
import { monthSchema } from "./month.ts";

// Monthly budgets (AWS Budgets / GCP billing style): an amount per UTC month on the fleet, a team,
// a project or a provider, with percentage thresholds on actual and on forecast spend.

export const BUDGET_SCOPES = ["fleet", "team", "project", "provider"] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];

export const thresholdsSchema = z
  .array(
    z
      .number({ error: "a percentage" })
      .int({ error: "whole percentages" })
      .min(1, { error: "at least 1 %" })
      .max(1000, { error: "at most 1000 %" }),
  )
  .min(1, { error: "at least one threshold" })
  .max(10, { error: "at most 10 thresholds" })
  .transform((ts) => [...new Set(ts)].sort((a, b) => a - b));

const scopeFields = {
  scopeKind: z.enum(BUDGET_SCOPES).default("fleet"),
  scopeValue: z.string().trim().max(200).default(""),
};

function checkScope(b: { scopeKind: BudgetScope; scopeValue: string }, ctx: z.RefinementCtx) {
  if (b.scopeKind !== "fleet" && b.scopeValue === "") {
    ctx.addIssue({
      code: "custom",
      path: ["scopeValue"],
      message: `name the ${b.scopeKind} this budget covers`,
    });
  }
  if (b.scopeKind === "fleet" && b.scopeValue !== "") {
    ctx.addIssue({
      code: "custom",
      path: ["scopeValue"],
      message: "a fleet budget has no scope value",
    });
  }
}

export const budgetInputSchema = z
  .strictObject({
    name: z
      .string({ error: "name is required" })
      .trim()
      .min(1, { error: "name is required" })
      .max(100, { error: "at most 100 characters" }),
    ...scopeFields,
    amount: amountSchema.describe("USD per month"),
    thresholds: thresholdsSchema.default([50, 80, 100]),
  })
  .superRefine(checkScope);
export type BudgetInput = z.infer<typeof budgetInputSchema>;

export const budgetUpdateSchema = z.strictObject({
  name: z.string().optional(),
  scopeKind: z.enum(BUDGET_SCOPES).optional(),
  scopeValue: z.string().optional(),
  amount: z.string().optional(),
  thresholds: z.array(z.number()).optional(),
});
export type BudgetUpdate = z.infer<typeof budgetUpdateSchema>;

export const budgetStatusSchema = z.object({
  month: monthSchema,
  spendMicros: microsSchema.describe("month-to-date spend in the budget's scope"),
  idleMicros: microsSchema.describe("of which spent on idle GPUs"),
  pctActual: z.number().describe("spend ÷ amount, percent, one decimal"),
  forecastMicros: microsSchema
    .nullable()
    .describe("month-to-date ÷ elapsed × days in month; null before 3 days of data"),
  pctForecast: z.number().nullable(),
  crossedActual: z.number().nullable().describe("highest threshold reached by actual spend"),
  crossedForecast: z.number().nullable().describe("highest threshold reached by the forecast"),
  dataTo: isoTimeSchema.nullable().describe("end of the last ledger hour counted"),
  forecastNote: z.string(),
});
export type BudgetStatus = z.infer<typeof budgetStatusSchema>;

export const budgetSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopeKind: z.enum(BUDGET_SCOPES),
  scopeValue: z.string(),
  amountMicros: microsSchema,
  currency: z.string(),
  thresholds: z.array(z.number()),
  status: budgetStatusSchema,
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type BudgetDto = z.infer<typeof budgetSchema>;

export const budgetListSchema = z.object({ budgets: z.array(budgetSchema) });
export type BudgetList = z.infer<typeof budgetListSchema>;
