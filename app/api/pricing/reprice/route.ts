import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { db } from "@/lib/db.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { applyReprice, previewReprice } from "@/lib/pricing/reprice.ts";
import { repriceRequestSchema } from "@/lib/zod/schemas/reprice.ts";
import { forbidden, handle, json } from "../../_lib/handle.ts";
import { readBody } from "../../_lib/http.ts";

/**
 * Re-prices a month of the ledger with today's catalogue. Without `apply` it previews (writes
 * nothing, audits nothing); with `apply: true` and the previewed new total it writes, and records
 * one audit entry here (the generic per-request entry is off: a preview is not a change).
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    if (teamScope(actor) !== null) {
      return forbidden(
        "forbidden: re-pricing changes the whole fleet's ledger, and your account is limited " +
          "to some teams; ask a finance user or an admin without a team limit",
      );
    }
    const body = await readBody(req, repriceRequestSchema);
    const now = new Date();
    if (body.apply !== true) return json(await previewReprice(db, { month: body.month, now }));
    const by = actorLabel(actor);
    const result = await applyReprice(db, {
      month: body.month,
      now,
      by,
      expectedNewTotalMicros: body.expectedNewTotalMicros ?? "",
      reopen: body.reopen === true,
    });
    await recordAudit({
      actor: by,
      action: result.reopened ? "pricing.reprice.reopen" : "pricing.reprice",
      target: body.month,
      detail: {
        oldTotalMicros: result.oldTotalMicros,
        newTotalMicros: result.newTotalMicros,
        hoursChanged: result.hours.changed,
        rowsChanged: result.rowsChanged,
        reopened: result.reopened,
      },
      ip: clientIp(req.headers),
    });
    await refreshFleetSoon();
    return json(result);
  },
  { audit: false },
);
