import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { retireRate } from "@/lib/pricing/rates.ts";
import { handle, json, noQuery, parseQuery } from "../../../../_lib/handle.ts";
import { type IdCtx } from "../../../../_lib/http.ts";

/**
 * Retires an exchange rate a person added (finance without a team limit): it converts nothing
 * from now on, and a corrected rate may then be added for the same day. The audit entry keeps the
 * retired rate whole.
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, ctx: IdCtx, actor) => {
    requireFleetWide(actor, "retiring an exchange rate");
    parseQuery(noQuery, req.url);
    const { id } = await ctx.params;
    const row = await retireRate(id);
    await recordAudit({
      actor: actorLabel(actor),
      action: "pricing.rate.retire",
      target: id,
      detail: { retired: row },
      ip: clientIp(req.headers),
    });
    await refreshFleetSoon();
    return json(row);
  },
  { audit: false },
);
