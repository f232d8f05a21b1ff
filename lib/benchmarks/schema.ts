import { z } from "zod";
import {
  isoTimeSchema,
  microsSchema,
  noteSchema,
  requiredText,
  sourceDateSchema,
} from "../zod/schemas/common.ts";

// A benchmark result as people enter it (the add form, POST /api/benchmarks, one CSV line) and as
// the API answers it. Value is a throughput per instance: tokens/s, images/s, TFLOPS, GB/s.

const text = requiredText;

export const benchmarkInputSchema = z.strictObject({
  provider: text("provider", 40)
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, { error: "provider like aws, gcp, azure" })),
  instanceType: text("instance type", 100).pipe(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, { error: "instance type like p5.48xlarge" }),
  ),
  workload: text("workload", 200).describe(
    "the named workload, e.g. MLPerf Inference v4.1 Llama 2 70B",
  ),
  unit: text("unit", 40)
    .pipe(
      z.string().regex(/^[A-Za-z][A-Za-z0-9 ._-]*(\/s)?$/, {
        error: "a unit like tokens/s, images/s, TFLOPS, GB/s",
      }),
    )
    .describe("per instance: tokens/s, images/s, TFLOPS (HPL), GB/s (STREAM)"),
  value: z.coerce
    .number({ error: "value must be a number" })
    .refine(Number.isFinite, { error: "value must be a finite number" })
    .refine((v) => v > 0, { error: "value must be more than 0" })
    .refine((v) => v <= 1e12, { error: "value must be at most 1e12" }),
  source: text("source", 500).describe("where the figure comes from: a URL or publication"),
  sourceDate: sourceDateSchema("the month or day it was published, e.g. 2025-11"),
  note: noteSchema,
});
export type BenchmarkInput = z.output<typeof benchmarkInputSchema>;

export const BENCHMARK_ORIGINS = ["shipped", "user"] as const;

export const unitCostSchema = z.object({
  pricingModel: z.string(),
  region: z.string(),
  usdPerHourMicros: microsSchema,
  /** what one unit label costs, e.g. "$ per million tokens" */
  per: z.string(),
  micros: microsSchema.describe("cost of `per` at the cheapest row of this pricing model"),
});

export const benchmarkSchema = z.object({
  id: z.string(),
  provider: z.string(),
  instanceType: z.string(),
  workload: z.string(),
  unit: z.string(),
  value: z.number(),
  source: z.string(),
  sourceDate: z.string(),
  note: z.string().nullable(),
  origin: z.enum(BENCHMARK_ORIGINS),
  updatedBy: z.string().nullable(),
  updatedAt: isoTimeSchema,
  costs: z
    .array(unitCostSchema)
    .describe("cost per unit of work at the cheapest row in force of each pricing model"),
});
export type BenchmarkDto = z.infer<typeof benchmarkSchema>;
export type UnitCostDto = z.infer<typeof unitCostSchema>;

export const benchmarkListSchema = z.object({ rows: z.array(benchmarkSchema) });

export const benchmarkImportResultSchema = z.object({
  added: z.number(),
  updated: z.number(),
  lines: z.number().describe("data lines read"),
});
export type BenchmarkImportResult = z.infer<typeof benchmarkImportResultSchema>;

export const CSV_HEADER = [
  "provider",
  "instanceType",
  "workload",
  "unit",
  "value",
  "source",
  "sourceDate",
  "note",
] as const;
