import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { updatePrice } from "@/lib/pricing/manage.ts";
import { priceUpdateSchema } from "@/lib/zod/schemas/pricing.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { handle, json } from "../../_lib/handle.ts";
import { readBody, type IdCtx } from "../../_lib/http.ts";

/** Changes a price (finance without a team limit); the audit entry keeps the row before and after. */
export const PATCH = handle(
  "pricing:write",
  async (req: Request, ctx: IdCtx, actor) => {
    requireFleetWide(actor, "changing a price");
    const { id } = await ctx.params;
    const patch = await readBody(req, priceUpdateSchema);
    const { before, after } = await updatePrice(id, patch, actorLabel(actor));
    await recordAudit({
      actor: actorLabel(actor),
      action: "pricing.update",
      target: id,
      detail: { before, after },
      ip: clientIp(req.headers),
    });
    await refreshFleetSoon();
    return json(after);
  },
  { audit: false },
);
