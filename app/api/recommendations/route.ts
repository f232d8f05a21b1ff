import { teamScope } from "@/lib/auth/scope.ts";
import { listRecommendations } from "@/lib/recommendations/list-recommendations.ts";
import { recommendationListQuerySchema } from "@/lib/zod/schemas/recommendation.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";

export const GET = handle("recommendations:read", async (req: Request, _ctx: unknown, actor) => {
  const q = parseQuery(recommendationListQuerySchema, req.url);
  return json(await listRecommendations(q, { scope: teamScope(actor) }));
});
