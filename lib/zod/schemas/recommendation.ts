import { z } from "zod";
import { isoTimeSchema, microsSchema } from "./common.ts";

// Savings recommendations. Monthly saving = hourly price difference × 730 h (8,760 h ÷ 12, the
// convention cloud price calculators use), kept exactly in micro-dollars.

export const HOURS_PER_MONTH = 730;

export const RECOMMENDATION_KINDS = [
  "idle_release",
  "right_size",
  "spot",
  "reserved",
  "mig",
  "busy_inefficient",
  "trial_move",
] as const;
export type RecommendationKind = (typeof RECOMMENDATION_KINDS)[number];

export const RECOMMENDATION_KIND_LABELS: Record<RecommendationKind, string> = {
  idle_release: "Stop or release idle host",
  right_size: "Right-size",
  spot: "Move to spot",
  reserved: "Reserve / savings plan",
  mig: "Share with MIG",
  busy_inefficient: "Busy but inefficient",
  trial_move: "Move after a trial",
};

export const RECOMMENDATION_STATES = ["open", "accepted", "dismissed", "snoozed"] as const;
export type RecommendationState = (typeof RECOMMENDATION_STATES)[number];

/** One day of the evidence window, in percent, for the chart. */
export const evidencePointSchema = z.object({
  t: z.number().describe("day start, epoch ms (UTC)"),
  utilP95: z.number().nullable(),
  utilMean: z.number().nullable(),
  memPeakPct: z.number().nullable().describe("peak memory used, % of the GPU's memory"),
  idlePct: z.number().nullable().describe("idle time, % of up time"),
  upPct: z.number().nullable().describe("up time, % of the day"),
});
export type EvidencePoint = z.infer<typeof evidencePointSchema>;

export const priceRefSchema = z.object({
  instanceType: z.string(),
  pricingModel: z.string(),
  usdPerHourMicros: microsSchema,
  gpuModel: z.string().nullable(),
  gpuCount: z.number().int().nullable(),
  source: z.string().nullable(),
});

export const evidenceSchema = z.object({
  from: isoTimeSchema,
  to: isoTimeSchema,
  /** the figures the rule compared, by name (ratios 0-1, bytes, hours) */
  metrics: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
  series: z.array(evidencePointSchema),
  current: priceRefSchema.nullable(),
  proposed: priceRefSchema.nullable(),
  hourlySavingMicros: microsSchema,
  convention: z.string(),
  caveat: z.string().nullable(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const recommendationSchema = z.object({
  id: z.string(),
  kind: z.enum(RECOMMENDATION_KINDS),
  hostId: z.string(),
  hostname: z.string(),
  gpuUuid: z.string().nullable(),
  team: z.string(),
  project: z.string(),
  owner: z.string().nullable(),
  title: z.string(),
  details: z.string(),
  evidence: evidenceSchema,
  monthlySavingMicros: microsSchema,
  state: z.enum(RECOMMENDATION_STATES),
  dismissReason: z.string().nullable(),
  snoozedUntil: isoTimeSchema.nullable(),
  actedBy: z.string().nullable(),
  actedAt: isoTimeSchema.nullable(),
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type RecommendationDto = z.infer<typeof recommendationSchema>;

export const recommendationListQuerySchema = z.strictObject({
  state: z.enum([...RECOMMENDATION_STATES, "all"]).default("open"),
  kind: z.enum(RECOMMENDATION_KINDS).optional(),
});
export type RecommendationListQuery = z.infer<typeof recommendationListQuerySchema>;

export const recommendationListSchema = z.object({
  recommendations: z.array(recommendationSchema).describe("highest monthly saving first"),
  totals: z.object({
    possibleMicros: microsSchema.describe(
      "open recommendations, per host the largest only (alternatives for one host do not add up)",
    ),
    openCount: z.number().int(),
    acceptedMicros: microsSchema.describe("monthly saving of accepted recommendations"),
    acceptedCount: z.number().int(),
    dismissedCount: z.number().int(),
    snoozedCount: z.number().int(),
  }),
  lastComputedAt: isoTimeSchema.nullable(),
  convention: z.string(),
  generatedAt: isoTimeSchema,
});
export type RecommendationList = z.infer<typeof recommendationListSchema>;

export const dismissInputSchema = z.strictObject({
  reason: z
    .string({ error: "say why" })
    .trim()
    .min(3, { error: "say why in a few words (at least 3 characters)" })
    .max(500, { error: "at most 500 characters" }),
});
export const recommendationSnoozeInputSchema = z
  .strictObject({
    until: isoTimeSchema.optional(),
    days: z
      .number()
      .int()
      .min(1, { error: "at least 1 day" })
      .max(365, { error: "at most 365 days" })
      .optional(),
  })
  .refine((s) => (s.until === undefined) !== (s.days === undefined), {
    error: "give either until or days",
  });
export const acceptInputSchema = z.strictObject({
  note: z.string().trim().max(500).optional(),
});

export const recomputeResultSchema = z.object({
  hosts: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  kept: z.number().int().describe("dismissed, snoozed or accepted: left as they are"),
});
export type RecomputeResult = z.infer<typeof recomputeResultSchema>;
