import { z } from "zod";
import { isoTimeSchema, microsSchema, sourceHealthSchema } from "./common.ts";
import { monthSchema } from "./month.ts";

export const GPU_STATUSES = ["busy", "held_idle", "empty_idle", "mig", "not_reporting"] as const;
export const gpuStatusSchema = z
  .enum(GPU_STATUSES)
  .describe(
    "busy: SM ≥ 5 %; held_idle: memory or a process attached but SM < 5 %; empty_idle: nothing attached and SM < 5 %; mig: partitioned, SM not reported; not_reporting: no recent data",
  );
export type GpuStatus = z.infer<typeof gpuStatusSchema>;

export const gridGpuSchema = z.object({
  uuid: z.string(),
  hostId: z.string(),
  hostname: z.string(),
  index: z.number().int(),
  name: z.string(),
  util: z.number().nullable(),
  memUsedBytes: z.number().nullable(),
  memTotalBytes: z.number().nullable(),
  processes: z.number().int().nullable(),
  migSlices: z.number().int(),
  status: gpuStatusSchema,
});
export type GridGpu = z.infer<typeof gridGpuSchema>;

export const fleetSummarySchema = z.object({
  generatedAt: isoTimeSchema,
  health: sourceHealthSchema,
  hosts: z.object({
    total: z.number().int(),
    up: z.number().int(),
    down: z.number().int(),
    unknown: z.number().int(),
  }),
  gpus: z.object({
    known: z.number().int().describe("whole GPUs known to the store (MIG slices not counted)"),
    reporting: z.number().int(),
  }),
  utilMean: z.number().nullable().describe("mean SM utilization 0-1 over reporting GPUs"),
  memory: z.object({ usedBytes: z.number(), totalBytes: z.number() }),
  burn: z.object({
    perHourMicros: microsSchema.describe("sum of catalogue prices of hosts that are up"),
    currency: z.string(),
    unpricedHosts: z.number().int().describe("up hosts with no catalogue price (not in the sum)"),
  }),
  month: z.object({
    month: monthSchema,
    spendMicros: microsSchema.describe("closed ledger hours of the current UTC month"),
    forecastMicros: microsSchema.nullable().describe("null until 3 days of data exist"),
    budgetMicros: microsSchema.nullable(),
  }),
  idle: z.object({
    count: z.number().int().describe("reporting whole GPUs with SM < 5 % now"),
    heldIdle: z.number().int(),
    emptyIdle: z.number().int(),
    perHourMicros: microsSchema.describe("what the idle GPUs cost per hour (GPU share of price)"),
  }),
  grid: z.array(gridGpuSchema),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;
