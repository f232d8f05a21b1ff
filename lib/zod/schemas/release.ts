import { z } from "zod";
import { isoTimeSchema, microsSchema } from "./common.ts";
import { recommendationSchema } from "./recommendation.ts";

// Accepting an idle-host recommendation with "release it" (app/api/recommendations/[id]/release):
// the active idle-release policies that cover the host, and the episode the accept scheduled.

export const releaseInputSchema = z.strictObject({
  policyId: z
    .string({ error: "choose a policy" })
    .trim()
    .min(1, { error: "choose a policy" })
    .max(64),
});

export const releaseOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  action: z.string(),
  graceMinutes: z.number().int(),
  executor: z.string(),
});
export type ReleaseOptionDto = z.infer<typeof releaseOptionSchema>;

export const releaseOptionsSchema = z.object({ policies: z.array(releaseOptionSchema) });

export const scheduledReleaseSchema = z.object({
  episodeId: z.string(),
  policyId: z.string(),
  policyName: z.string(),
  hostname: z.string(),
  action: z.string(),
  state: z.string(),
  actAt: isoTimeSchema.describe("when the policy acts unless a keep link is used"),
  keepUntil: isoTimeSchema.nullable(),
  recipients: z.array(z.object({ role: z.enum(["owner", "holder"]), name: z.string() })),
  resize: z
    .object({ from: z.string(), to: z.string(), monthlySavingMicros: microsSchema.nullable() })
    .nullable()
    .describe("a right-size (action resize): from and to instance types and the saving a month"),
  created: z.boolean().describe("false when the host's live episode already existed"),
});
export type ScheduledReleaseDto = z.infer<typeof scheduledReleaseSchema>;

export const releaseResultSchema = z.object({
  recommendation: recommendationSchema,
  release: scheduledReleaseSchema,
});
export type ReleaseResultDto = z.infer<typeof releaseResultSchema>;

// Accepting a right-size recommendation by resizing the host (app/api/recommendations/[id]/resize):
// the same body and answer, and the covering policies whose executor cannot resize listed apart.

export const resizeOptionsSchema = z.object({
  policies: z.array(releaseOptionSchema).describe("active policies whose executor can resize"),
  cannotResize: z
    .array(releaseOptionSchema)
    .describe("active policies that cover the host but whose executor cannot resize"),
});
export type ResizeOptionsDto = z.infer<typeof resizeOptionsSchema>;

export const resizeResultSchema = z.object({
  recommendation: recommendationSchema,
  resize: scheduledReleaseSchema,
});
export type ResizeResultDto = z.infer<typeof resizeResultSchema>;
