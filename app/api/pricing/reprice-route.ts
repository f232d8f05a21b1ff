import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import type { RepriceResultDto } from "@/lib/zod/schemas/reprice.ts";
import { repriceRequestSchema } from "@/lib/zod/schemas/reprice.ts";
import { handle, json } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

// The one shape of the routes that re-price a month (from today's catalogue, or from the imported
// bill): finance without a team limit; without `apply` a preview (writes and audits nothing); with
// `apply: true` and the previewed new total the service writes it as one run and audits it itself
// (`pricing.reprice.started`, then `pricing.reprice` or `.reopen`), so the generic per-request
// audit entry is off.

interface ApplyInput {
  month: string;
  now: Date;
  by: string;
  expectedNewTotalMicros: string;
  reopen: boolean;
  ip: string | null;
}

export function repriceRoute(
  what: string,
  preview: (opts: { month: string; now: Date }) => Promise<RepriceResultDto>,
  apply: (opts: ApplyInput) => Promise<RepriceResultDto>,
) {
  return handle(
    "pricing:write",
    async (req: Request, _ctx: unknown, actor) => {
      requireFleetWide(actor, what);
      const body = await readBody(req, repriceRequestSchema);
      const now = new Date();
      if (body.apply !== true) return json(await preview({ month: body.month, now }));
      const result = await apply({
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
}
