import { actorLabel } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { ConflictError } from "@/lib/core/errors.ts";
import { releaseOptions, scheduleRelease } from "@/lib/policies/accept-release.ts";
import { acceptRecommendationOnce } from "@/lib/recommendations/act-on-recommendation.ts";
import {
  getRecommendation,
  recommendationInScope,
} from "@/lib/recommendations/list-recommendations.ts";
import { releaseInputSchema } from "@/lib/zod/schemas/release.ts";
import { handle, json } from "../../../_lib/handle.ts";
import { readBody, type IdCtx } from "../../../_lib/http.ts";

// Accepting a "stop or release idle host" recommendation by acting: GET lists the active
// idle-release policies that cover the host; POST {policyId} schedules the release through that
// policy (warning to the owner and holders now, the action after the grace period unless kept;
// lib/policies/accept-release.ts) and marks the recommendation accepted. Accepting again returns
// the same episode. 409 for another kind, a dismissed recommendation, a kept or busy host.

async function idleRecommendation(id: string, actor: Parameters<typeof teamScope>[0]) {
  const checked = await recommendationInScope(id, teamScope(actor));
  const rec = await getRecommendation(checked, { scope: null });
  if (rec.kind !== "idle_release")
    throw new ConflictError(
      `only an idle-host recommendation can be released (this is ${rec.kind})`,
    );
  return { checked, rec };
}

export const GET = handle("recommendations:act", async (_req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const { rec } = await idleRecommendation(id, actor);
  return json(await releaseOptions(rec.hostId, teamScope(actor)));
});

export const POST = handle(
  "recommendations:act",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    const { checked, rec } = await idleRecommendation(id, actor);
    const { policyId } = await readBody(req, releaseInputSchema, 4096);
    if (rec.state === "dismissed")
      throw new ConflictError("recommendation is dismissed: reopen it first");
    const by = actorLabel(actor);
    const release = await scheduleRelease(
      { hostId: rec.hostId, policyId, actor: by, recommendationId: rec.id },
      teamScope(actor),
    );
    const recommendation = await acceptRecommendationOnce(checked, by);
    return json({ recommendation, release });
  },
  { maxBodyBytes: 4096 },
);
