import { requireNoTeamLimit } from "@/lib/auth/scope.ts";
import { reconciliationCsv } from "@/lib/billing/csv.ts";
import { reconcileMonth } from "@/lib/billing/service.ts";
import { addMonths, monthOf } from "@/lib/core/months.ts";
import { reconcileQuerySchema } from "@/lib/zod/schemas/billing.ts";
import { handle, parseQuery } from "../../_lib/handle.ts";

/** The month's reconciliation as CSV (finance, no team limit), formula-escaped text cells. */
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
    requireNoTeamLimit(actor, "the reconciliation compares whole-account bills");
  const { month = addMonths(monthOf(new Date()), -1) } = parseQuery(reconcileQuerySchema, req.url);
  return new Response(reconciliationCsv(await reconcileMonth(month)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="gpufleet-reconciliation-${month}.csv"`,
      "cache-control": "no-store",
    },
  });
});
