import { z } from "zod";
import { isoTimeSchema } from "./common.ts";
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
  created: z.boolean().describe("false when the host's live episode already existed"),
});
export type ScheduledReleaseDto = z.infer<typeof scheduledReleaseSchema>;

export const releaseResultSchema = z.object({
  recommendation: recommendationSchema,
  release: scheduledReleaseSchema,
});
export type ReleaseResultDto = z.infer<typeof releaseResultSchema>;
