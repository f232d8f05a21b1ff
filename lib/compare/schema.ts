import { z } from "zod";
import { benchmarkSchema } from "../benchmarks/schema.ts";
import { isoTimeSchema, microsSchema } from "../zod/schemas/common.ts";
import { monthSchema } from "../zod/schemas/month.ts";

// GET /api/compare: the cross-cloud comparison, one schema for the route, the page and OpenAPI.

export const compareQuerySchema = z.strictObject({ month: monthSchema.optional() });

export const gpuSpecSchema = z.object({
  key: z.string(),
  label: z.string(),
  bf16Tflops: z.number().nullable().describe("dense BF16 tensor TFLOPS (no sparsity)"),
  fp16Tflops: z.number().nullable().describe("dense FP16 tensor TFLOPS (no sparsity)"),
  memoryGB: z.number(),
  memoryBandwidthGBs: z.number(),
  source: z.string(),
  sourceDate: z.string(),
  note: z.string().nullable(),
});

export const workCostSchema = z.object({
  workload: z.string(),
  unit: z.string(),
  value: z.number(),
  per: z.string().describe('e.g. "$ per million tokens"'),
  micros: microsSchema,
});

export const offerSchema = z.object({
  provider: z.string(),
  instanceType: z.string(),
  region: z.string(),
  pricingModel: z.string(),
  gpuModel: z.string(),
  gpuCount: z.number(),
  usdPerHourMicros: microsSchema.describe("the instance's price per hour"),
  perGpuHourMicros: microsSchema,
  perTflopsHourMicros: microsSchema.nullable(),
  tflopsPrecision: z.enum(["BF16", "FP16"]).nullable(),
  perGbHourMicros: microsSchema.nullable(),
  currency: z.string().describe("the row's list currency; figures are USD"),
  conversion: z
    .string()
    .nullable()
    .describe('"converted from CNY" for rows kept in another currency'),
  effectiveFrom: isoTimeSchema,
  source: z.string(),
  sourceDate: z.string(),
  note: z.string().nullable(),
  workCosts: z.array(workCostSchema).describe("cost per unit of work where a benchmark exists"),
});
export type OfferDto = z.infer<typeof offerSchema>;

export const modelOffersSchema = z.object({
  model: z.string(),
  label: z.string(),
  spec: gpuSpecSchema.nullable(),
  offers: z.array(offerSchema).describe("cheapest per GPU-hour first"),
  providersWithout: z.array(z.string()).describe("providers in the catalogue with no offer for it"),
});

const alternativeSchema = z.object({
  provider: z.string(),
  pricingModel: z.string(),
  instanceType: z.string(),
  region: z.string(),
  gpuCount: z.number(),
  usdPerHourMicros: microsSchema,
  conversion: z.string().nullable(),
  micros: microsSchema,
  displayMicros: microsSchema.describe("rounded to the cent; a column's rows add up to its total"),
});

export const repricedModelSchema = z.object({
  model: z.string(),
  label: z.string(),
  gpuHours: z.number(),
  unpricedGpuHours: z.number(),
  actualMicros: microsSchema,
  displayActualMicros: microsSchema,
  alternatives: z
    .array(alternativeSchema)
    .describe("cheapest offer of each provider and pricing model"),
  providersWithout: z.array(z.string()),
});

export const repriceColumnSchema = z.object({
  provider: z.string(),
  pricingModel: z.string(),
  micros: microsSchema,
  displayMicros: microsSchema,
  actualCoveredMicros: microsSchema,
  missingModels: z.array(z.string()),
});

export const compareResultSchema = z.object({
  month: z.string(),
  generatedAt: isoTimeSchema,
  providers: z.array(z.string()),
  pricingModels: z.array(z.string()),
  specs: z.array(gpuSpecSchema),
  models: z.array(modelOffersSchema),
  benchmarks: z.array(benchmarkSchema),
  reprice: z.object({
    teamLimited: z.boolean().describe("true: only the caller's teams' hosts are counted"),
    models: z.array(repricedModelSchema),
    columns: z.array(repriceColumnSchema),
    actualMicros: microsSchema,
    displayActualMicros: microsSchema,
  }),
});
export type CompareResult = z.infer<typeof compareResultSchema>;
