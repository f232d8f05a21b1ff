import { teamScope } from "@/lib/auth/scope.ts";
import { getAlert } from "@/lib/alerts/get-alert.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { type IdCtx } from "../../_lib/http.ts";

export const GET = handle("alerts:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  return json(await getAlert(id, { scope: teamScope(actor) }));
});
