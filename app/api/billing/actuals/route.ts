import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { applyActuals, previewActuals } from "@/lib/billing/actuals.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { repriceRequestSchema } from "@/lib/zod/schemas/reprice.ts";
import { handle, json } from "../../_lib/handle.ts";
import { readBody } from "../../_lib/http.ts";

/**
 * Re-prices a month of the ledger from its imported bills (actuals, issue 26): the ledger's
 * re-pricing with the bill as its source, so the body and the answer are the catalogue
 * re-pricing's (POST /api/pricing/reprice). Without `apply` it previews (writes and audits
 * nothing); with `apply: true` and the previewed new total the service writes it as one run and
 * audits it itself (`pricing.reprice.started`, then `pricing.reprice` or `.reopen`, with
 * source "bill").
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    requireFleetWide(actor, "applying actuals from the bill");
    const body = await readBody(req, repriceRequestSchema);
    const now = new Date();
    if (body.apply !== true) return json(await previewActuals({ month: body.month, now }));
    const result = await applyActuals({
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
