import { actorLabel } from "@/lib/auth/actor.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { retirePrice } from "@/lib/pricing/manage.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { handle, json, noQuery, parseQuery } from "../../../_lib/handle.ts";
import { type IdCtx } from "../../../_lib/http.ts";

/**
 * Retires a price (finance without a team limit): it prices nothing from now on and stays listed,
 * retired, for the record.
 */
export const POST = handle("pricing:write", async (req: Request, ctx: IdCtx, actor) => {
  requireFleetWide(actor, "retiring a price");
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  const row = await retirePrice(id, actorLabel(actor));
  await refreshFleetSoon();
  return json(row);
});
