import { actorLabel } from "@/lib/auth/actor.ts";
import { recommendationInScope } from "@/lib/recommendations/list-recommendations.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { acceptRecommendation } from "@/lib/recommendations/act-on-recommendation.ts";
import { acceptInputSchema } from "@/lib/zod/schemas/recommendation.ts";
import { handle, json } from "../../../_lib/handle.ts";
import { readBody, type IdCtx } from "../../../_lib/http.ts";

export const POST = handle("recommendations:act", async (req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const checked = await recommendationInScope(id, teamScope(actor));
  await readBody(req, acceptInputSchema);
  return json(await acceptRecommendation(checked, actorLabel(actor)));
});
