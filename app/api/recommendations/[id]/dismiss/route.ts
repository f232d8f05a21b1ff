import { actingUser } from "@/lib/alerts/acting-user.ts";
import { dismissRecommendation } from "@/lib/recommendations/act-on-recommendation.ts";
import { dismissInputSchema } from "@/lib/zod/schemas/recommendation.ts";
import { json } from "../../../_lib/handle.ts";
import { handleMine, readBody, type IdCtx } from "../../../alerts/_lib/http.ts";

export const POST = handleMine(async (req: Request, ctx: IdCtx) => {
  const { id } = await ctx.params;
  const { reason } = await readBody(req, dismissInputSchema);
  return json(await dismissRecommendation(id, actingUser(req), reason));
});
