import { teamScope } from "@/lib/auth/scope.ts";
import { getInstanceSeries } from "@/lib/fleet/get-instance-series.ts";
import { rangeQuerySchema } from "@/lib/zod/schemas/range.ts";
import { handle, json, parseQuery } from "../../../_lib/handle.ts";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle("fleet:read", async (req: Request, ctx: Ctx, actor) => {
  const { range } = parseQuery(rangeQuerySchema, req.url);
  const { id } = await ctx.params;
  return json(await getInstanceSeries(id, range, { scope: teamScope(actor) }));
});
