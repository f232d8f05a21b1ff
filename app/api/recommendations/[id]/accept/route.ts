import { actingUser } from "@/lib/alerts/acting-user.ts";
import { acceptRecommendation } from "@/lib/recommendations/act-on-recommendation.ts";
import { acceptInputSchema } from "@/lib/zod/schemas/recommendation.ts";
import { json } from "../../../_lib/handle.ts";
import { handleMine, readBody, type IdCtx } from "../../../alerts/_lib/http.ts";

export const POST = handleMine(async (req: Request, ctx: IdCtx) => {
  const { id } = await ctx.params;
  await readBody(req, acceptInputSchema);
  return json(await acceptRecommendation(id, actingUser(req)));
});
