import { requireNoTeamLimit } from "@/lib/auth/scope.ts";
import { reconcileMonth } from "@/lib/billing/service.ts";
import { addMonths, monthOf } from "@/lib/core/months.ts";
import { reconcileQuerySchema } from "@/lib/zod/schemas/billing.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

/**
 * A month's reconciliation (finance): the ledger's estimate per host beside the imported bills,
 * the variance and its reasons, the GPU instances nobody monitors and the hosts no bill mentions.
 * Account-wide, like the bill: not for a user limited to some teams.
 */
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  requireNoTeamLimit(actor, "the reconciliation compares whole-account bills");
  const { month } = parseQuery(reconcileQuerySchema, req.url);
  return json(await reconcileMonth(month ?? addMonths(monthOf(new Date()), -1)));
});
