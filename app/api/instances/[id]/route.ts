import { teamScope } from "@/lib/auth/scope.ts";
import { getInstance } from "@/lib/fleet/get-instance.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle("fleet:read", async (req: Request, ctx: Ctx, actor) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  return json(await getInstance(id, { scope: teamScope(actor) }));
});
