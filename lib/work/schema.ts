import { z } from "zod";
import { WORK_UNITS } from "../../exporter/contract.ts";
import { microsSchema } from "../zod/schemas/common.ts";
import { monthSchema } from "../zod/schemas/month.ts";
import { MIN_HOURS, minUnits, type TypeModelRow, type UnitCostRow } from "./unit-cost-math.ts";

// GET /api/work/unit-costs (and .csv): measured cost per unit of work, one schema for the route,
// the pages and OpenAPI.

export const unitCostQuerySchema = z.strictObject({
  month: monthSchema.optional(),
  split: z
    .enum(["host", "share"])
    .optional()
    .describe(
      "host (default): a host serving several models has one cost, marked mixed; share: each hour's cost is split by each model's share of the work",
    ),
  host: z.string().min(1).max(200).optional().describe("one host's id"),
});
export type UnitCostQuery = z.infer<typeof unitCostQuerySchema>;

const statusSchema = z
  .enum(["ok", "not_enough_data", "unpriced"])
  .describe(
    `ok; not_enough_data: under ${MIN_HOURS} measured hour or under the unit's minimum (1,000,000 tokens, 1000 of anything else); unpriced: an hour had no catalogue price`,
  );
const unitSchema = z.enum(WORK_UNITS);

export const unitCostRowSchema = z.object({
  hostId: z.string(),
  hostname: z.string(),
  provider: z.string(),
  instanceType: z.string(),
  gpus: z.string().nullable(),
  unit: unitSchema,
  modelName: z.string().nullable().describe("null: a mixed host's per-host row"),
  models: z.array(z.string()),
  mixed: z.boolean(),
  split: z.boolean(),
  units: z.number(),
  hours: z.number().describe("ledger hours of the host while its counters were reported"),
  perSecond: z.number(),
  costMicros: microsSchema,
  perMicros: microsSchema.nullable(),
  per: z.string().describe('"$ per million output tokens", "$ per 1000 samples"'),
  status: statusSchema,
});

export const typeModelRowSchema = z.object({
  provider: z.string(),
  instanceType: z.string(),
  gpus: z.string().nullable(),
  model: z.string(),
  mixed: z.boolean(),
  unit: unitSchema,
  hosts: z.number(),
  units: z.number(),
  hours: z.number(),
  perSecondPerHost: z.number(),
  costMicros: microsSchema,
  perMicros: microsSchema.nullable(),
  per: z.string(),
  status: statusSchema,
});

export const unitCostResultSchema = z.object({
  month: monthSchema,
  split: z.enum(["host", "share"]),
  minimums: z.object({
    hours: z.number(),
    tokens: z.number(),
    otherUnits: z.number(),
  }),
  hosts: z.array(unitCostRowSchema),
  byType: z.array(typeModelRowSchema),
});
export type UnitCostResult = z.infer<typeof unitCostResultSchema>;
export type UnitCostRowDto = z.infer<typeof unitCostRowSchema>;
export type TypeModelRowDto = z.infer<typeof typeModelRowSchema>;

export const MINIMUMS = {
  hours: MIN_HOURS,
  tokens: minUnits("output_tokens"),
  otherUnits: minUnits("requests"),
};

export function toRowDto(r: UnitCostRow): UnitCostRowDto {
  return { ...r, costMicros: r.costMicros.toString(), perMicros: r.perMicros?.toString() ?? null };
}

export function toTypeDto(r: TypeModelRow): TypeModelRowDto {
  return { ...r, costMicros: r.costMicros.toString(), perMicros: r.perMicros?.toString() ?? null };
}
