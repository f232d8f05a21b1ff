import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { applyReprice, previewReprice } from "@/lib/ledger/reprice.ts";
import { repriceRequestSchema } from "@/lib/zod/schemas/reprice.ts";
import { handle, json } from "../../_lib/handle.ts";
import { readBody } from "../../_lib/http.ts";

/**
 * Re-prices a month of the ledger with today's catalogue. Without `apply` it previews (writes
 * nothing, audits nothing); with `apply: true` and the previewed new total the service writes it
 * as one run and audits it itself: `pricing.reprice.started` before anything is written, then
 * `pricing.reprice` (or `.reopen`) with the swap (the generic per-request entry is off: a preview
 * is not a change).
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    requireFleetWide(actor, "re-pricing");
    const body = await readBody(req, repriceRequestSchema);
    const now = new Date();
    if (body.apply !== true) return json(await previewReprice({ month: body.month, now }));
    const result = await applyReprice({
      month: body.month,
      now,
      by: actorLabel(actor),
      expectedNewTotalMicros: body.expectedNewTotalMicros ?? "",
      reopen: body.reopen === true,
      ip: clientIp(req.headers),
    });
    await refreshFleetSoon();
    return json(result);
  },
  { audit: false },
);
