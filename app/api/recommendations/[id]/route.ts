import { teamScope } from "@/lib/auth/scope.ts";
import { getRecommendation } from "@/lib/recommendations/list-recommendations.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { type IdCtx } from "../../_lib/http.ts";

export const GET = handle("recommendations:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  return json(await getRecommendation(id, { scope: teamScope(actor) }));
});
