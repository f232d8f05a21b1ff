import { z } from "zod";
import { isoTimeSchema, microsSchema, sourceHealthSchema } from "./common.ts";
import {
  ATTENTION_PREVIEW,
  ATTENTION_REASONS,
  GPU_STATUSES,
  GROUP_BYS,
  MAX_GPU_PAGE,
} from "./fleet-values.ts";
import { monthSchema } from "./month.ts";

export { ATTENTION_PREVIEW, ATTENTION_REASONS, GPU_STATUSES, GROUP_BYS, MAX_GPU_PAGE };

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

export const attentionReasonSchema = z
  .enum(ATTENTION_REASONS)
  .describe(
    "interrupted: its spot host was reclaimed or has a reclaim notice pending; unhealthy: reporting at 85 °C or hotter; not_reporting: no recent data; idle: reporting with SM < 5 % (held or empty)",
  );
export type AttentionReason = z.infer<typeof attentionReasonSchema>;

/** A grid GPU with why it needs attention (null: it does not). */
export const fleetGpuSchema = gridGpuSchema.extend({ reason: attentionReasonSchema.nullable() });
export type FleetGpu = z.infer<typeof fleetGpuSchema>;

/** A GPU of a /api/fleet/gpus page: a fleet GPU and who holds it now (issue 24). */
export const pagedFleetGpuSchema = fleetGpuSchema.extend({
  holders: z
    .array(z.string())
    .describe(
      "who holds it now (its processes' holders, its MIG slices' included), largest memory first; personal data: pseudonyms for viewers where the admin setting is on",
    ),
});
export type PagedFleetGpu = z.infer<typeof pagedFleetGpuSchema>;

export const groupBySchema = z
  .enum(GROUP_BYS)
  .describe("team and provider of the GPU's host, GPU model name, or GPU state (grid status)");
export type GroupBy = z.infer<typeof groupBySchema>;

const statusCountsSchema = z.object(
  Object.fromEntries(GPU_STATUSES.map((s) => [s, z.number().int()])) as Record<
    (typeof GPU_STATUSES)[number],
    z.ZodNumber
  >,
);

export const fleetGroupSchema = z.object({
  key: z.string(),
  hosts: z.number().int().describe("hosts with at least one GPU in the group"),
  gpus: z.number().int(),
  statuses: statusCountsSchema.describe("the group's GPUs by grid status"),
  utilMean: z.number().nullable().describe("mean SM utilization 0-1 over its reporting GPUs"),
  attention: z.number().int().describe("its GPUs that need attention"),
});
export type FleetGroup = z.infer<typeof fleetGroupSchema>;

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
  groups: z
    .object(
      Object.fromEntries(GROUP_BYS.map((b) => [b, z.array(fleetGroupSchema)])) as Record<
        GroupBy,
        z.ZodArray<typeof fleetGroupSchema>
      >,
    )
    .describe("aggregates per team, provider, GPU model and state, largest group first"),
  attention: z.object({
    total: z.number().int().describe("GPUs that need attention"),
    byReason: z.object(
      Object.fromEntries(ATTENTION_REASONS.map((r) => [r, z.number().int()])) as Record<
        AttentionReason,
        z.ZodNumber
      >,
    ),
    gpus: z
      .array(fleetGpuSchema)
      .describe(
        `the first ${ATTENTION_PREVIEW} of them, most urgent first (interrupted, unhealthy, not reporting, held idle, empty idle); the rest: /api/fleet/gpus?by=attention`,
      ),
  }),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;

export const fleetGpuQuerySchema = z
  .strictObject({
    by: z
      .enum([...GROUP_BYS, "attention"])
      .describe("a group kind of the summary, or attention for the problem list"),
    key: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "the group's key (required unless by=attention); for attention, one reason or all (the default)",
      ),
    page: z.coerce.number().int().min(1).max(100_000).default(1).describe("1-based"),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_GPU_PAGE)
      .default(200)
      .describe(`GPUs per page, at most ${MAX_GPU_PAGE}`),
  })
  .superRefine((q, ctx) => {
    if (q.by !== "attention" && q.key === undefined)
      ctx.addIssue({ code: "custom", path: ["key"], message: `required when by=${q.by}` });
    if (
      q.by === "attention" &&
      q.key !== undefined &&
      q.key !== "all" &&
      !(ATTENTION_REASONS as readonly string[]).includes(q.key)
    )
      ctx.addIssue({
        code: "custom",
        path: ["key"],
        message: `one of all, ${ATTENTION_REASONS.join(", ")} when by=attention`,
      });
  });
export type FleetGpuQuery = z.infer<typeof fleetGpuQuerySchema>;

export const fleetGpuPageSchema = z.object({
  generatedAt: isoTimeSchema,
  by: z.string(),
  key: z.string(),
  total: z.number().int().describe("GPUs in the group (0 for a key no GPU has)"),
  page: z.number().int(),
  pageSize: z.number().int(),
  pages: z.number().int(),
  gpus: z
    .array(pagedFleetGpuSchema)
    .describe("host by host, in index order; attention: most urgent first"),
});
export type FleetGpuPage = z.infer<typeof fleetGpuPageSchema>;
