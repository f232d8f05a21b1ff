import { z } from "zod";
import { isoTimeSchema, microsSchema, sourceHealthSchema } from "./common.ts";
import { gpuStatusSchema } from "./fleet.ts";
import { monthSchema } from "./month.ts";

/** "interrupted": a spot host reclaimed under an announced notice (not an outage). */
export const HOST_STATES = ["up", "down", "unknown", "interrupted"] as const;
export const hostStateSchema = z.enum(HOST_STATES);
export type HostState = z.infer<typeof hostStateSchema>;

export const instanceRowSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  provider: z.string(),
  instanceType: z.string(),
  region: z.string(),
  pricingModel: z.string(),
  team: z.string(),
  project: z.string(),
  state: hostStateSchema,
  gpus: z.number().int(),
  gpusReporting: z.number().int(),
  utilMean: z.number().nullable(),
  memUsedBytes: z.number().nullable(),
  memTotalBytes: z.number().nullable(),
  pricePerHourMicros: microsSchema.nullable().describe("null: no catalogue price (unpriced)"),
  currency: z.string(),
  lastSeen: isoTimeSchema.nullable(),
  interruptionPending: z.boolean().describe("spot: the provider's reclaim notice is pending"),
  interruptionAt: isoTimeSchema.nullable().describe("spot: the announced reclaim time, if given"),
  vgpuGuests: z.number().int().describe("GPUs whose virtualization mode is VGPU (vGPU guests)"),
});
export type InstanceRow = z.infer<typeof instanceRowSchema>;

export const instanceListSchema = z.object({
  generatedAt: isoTimeSchema,
  health: sourceHealthSchema,
  total: z.number().int().describe("instances before filtering"),
  rows: z.array(instanceRowSchema),
});
export type InstanceList = z.infer<typeof instanceListSchema>;

export const instanceGpuSchema = z.object({
  uuid: z.string(),
  index: z.number().int(),
  name: z.string(),
  util: z.number().nullable(),
  memUsedBytes: z.number().nullable(),
  memTotalBytes: z.number().nullable(),
  powerWatts: z.number().nullable(),
  tempCelsius: z.number().nullable(),
  processes: z.number().int().nullable(),
  smActive: z
    .number()
    .nullable()
    .describe("SM active 0-1 (DCGM profiling); null where the GPU has none"),
  reporting: z.boolean(),
  lastSeen: isoTimeSchema.nullable(),
  status: gpuStatusSchema,
  holders: z
    .array(z.string())
    .describe("who holds the GPU now (its processes' holders, largest memory first); personal data")
    .default([]),
});

export const migInstanceSchema = z.object({
  uuid: z.string(),
  parentUuid: z.string(),
  parentIndex: z.number().int().nullable(),
  profile: z.string().nullable(),
  memUsedBytes: z.number().nullable(),
  memTotalBytes: z.number().nullable(),
  reporting: z.boolean(),
});

export const processSchema = z.object({
  gpuUuid: z.string(),
  gpuIndex: z.number().int().nullable(),
  pid: z.number().int(),
  processName: z.string(),
  usedMemoryBytes: z.number(),
  holder: z
    .string()
    .nullable()
    .describe("the user, container, pod or Slurm job holding the process; null: not attributed")
    .default(null),
});

export const instanceDetailSchema = z.object({
  generatedAt: isoTimeSchema,
  health: sourceHealthSchema,
  host: z.object({
    id: z.string(),
    hostname: z.string(),
    provider: z.string(),
    instanceType: z.string(),
    region: z.string(),
    pricingModel: z.string(),
    team: z.string(),
    project: z.string(),
    owner: z.string().nullable(),
    labels: z.record(z.string(), z.string()),
    state: hostStateSchema,
    lastSeen: isoTimeSchema.nullable(),
    lastError: z.string().nullable(),
    firstSeen: isoTimeSchema,
  }),
  gpus: z.array(instanceGpuSchema),
  mig: z.array(migInstanceSchema),
  processes: z.array(processSchema),
  cost: z.object({
    month: monthSchema,
    currency: z.string(),
    pricePerHourMicros: microsSchema.nullable().describe("null: unpriced"),
    priceNote: z
      .string()
      .nullable()
      .optional()
      .describe(
        '"fallback (no <region> price)" when the any-region row priced it; a CNY price and its rate',
      ),
    monthToDateMicros: microsSchema.describe("closed ledger hours this UTC month"),
    idleMonthToDateMicros: microsSchema,
    idleNowPerHourMicros: microsSchema.describe("GPU share of the price for GPUs idle now"),
    unpricedHours: z.number().describe("ledger hours this month with no price"),
  }),
});
export type InstanceDetail = z.infer<typeof instanceDetailSchema>;
