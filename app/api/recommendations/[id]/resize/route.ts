import { actorLabel } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { ConflictError } from "@/lib/core/errors.ts";
import { resizeOptions, scheduleResize } from "@/lib/policies/accept-resize.ts";
import { acceptRecommendationOnce } from "@/lib/recommendations/act-on-recommendation.ts";
import {
  getRecommendation,
  recommendationInScope,
} from "@/lib/recommendations/list-recommendations.ts";
import { releaseInputSchema } from "@/lib/zod/schemas/release.ts";
import { handle, json } from "../../../_lib/handle.ts";
import { readBody, type IdCtx } from "../../../_lib/http.ts";

// Accepting a "right-size" recommendation by acting: GET lists the active idle-release policies
// that cover the host, those whose executor can resize apart from those that cannot; POST
// {policyId} schedules the resize to the recommendation's proposed instance type through that
// policy (warning to the owner and holders now, naming both types and the saving; the resize after
// the grace period unless kept; lib/policies/accept-resize.ts) and marks the recommendation
// accepted. Accepting again returns the same episode. The same permission as releasing.

async function rightSizeRecommendation(id: string, actor: Parameters<typeof teamScope>[0]) {
  const checked = await recommendationInScope(id, teamScope(actor));
  const rec = await getRecommendation(checked, { scope: null });
  if (rec.kind !== "right_size")
    throw new ConflictError(
      `only a right-size recommendation can be resized (this is ${rec.kind})`,
    );
  return { checked, rec };
}

export const GET = handle("recommendations:act", async (_req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const { rec } = await rightSizeRecommendation(id, actor);
  return json(await resizeOptions(rec.hostId, teamScope(actor)));
});

export const POST = handle(
  "recommendations:act",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    const { checked, rec } = await rightSizeRecommendation(id, actor);
    const { policyId } = await readBody(req, releaseInputSchema, 4096);
    if (rec.state === "dismissed")
      throw new ConflictError("recommendation is dismissed: reopen it first");
    const { current, proposed, hourlySavingMicros } = rec.evidence;
    if (!current || !proposed)
      throw new ConflictError("the recommendation names no instance types to resize between");
    const by = actorLabel(actor);
    const resize = await scheduleResize(
      {
        hostId: rec.hostId,
        policyId,
        actor: by,
        recommendationId: rec.id,
        from: current.instanceType,
        to: proposed.instanceType,
        hourlySavingMicros: BigInt(hourlySavingMicros),
      },
      teamScope(actor),
    );
    const recommendation = await acceptRecommendationOnce(checked, by);
    return json({ recommendation, resize });
  },
  { maxBodyBytes: 4096 },
);
