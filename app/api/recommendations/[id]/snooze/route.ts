import { actorLabel } from "@/lib/auth/actor.ts";
import { recommendationInScope } from "@/lib/recommendations/list-recommendations.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { snoozeRecommendation } from "@/lib/recommendations/act-on-recommendation.ts";
import { recommendationSnoozeInputSchema } from "@/lib/zod/schemas/recommendation.ts";
import { handle, json } from "../../../_lib/handle.ts";
import { readBody, type IdCtx } from "../../../_lib/http.ts";

export const POST = handle("recommendations:act", async (req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const checked = await recommendationInScope(id, teamScope(actor));
  const body = await readBody(req, recommendationSnoozeInputSchema);
  const until = body.until
    ? new Date(body.until)
    : new Date(Date.now() + (body.days ?? 7) * 86_400_000);
  return json(await snoozeRecommendation(checked, actorLabel(actor), until));
});
