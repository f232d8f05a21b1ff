import { teamScope } from "@/lib/auth/scope.ts";
import { costsCsv } from "@/lib/spend/csv.ts";
import { getCostMonth } from "@/lib/spend/get-cost-month.ts";
import { monthOf } from "@/lib/core/months.ts";
import { monthQuerySchema } from "@/lib/zod/schemas/month.ts";
import { handle, parseQuery } from "../../_lib/handle.ts";

export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const { month = monthOf(new Date()) } = parseQuery(monthQuerySchema, req.url);
  const costs = await getCostMonth(month, { scope: teamScope(actor) });
  const body = costsCsv(costs.instances, costs.currency);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="gpufleet-costs-${month}.csv"`,
      "cache-control": "no-store",
    },
  });
});
