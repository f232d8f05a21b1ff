import { teamScope } from "@/lib/auth/scope.ts";
import { monthOf } from "@/lib/core/months.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { unitCostsCsv } from "@/lib/work/csv.ts";
import { getUnitCostMonth } from "@/lib/work/get-unit-cost-month.ts";
import { unitCostQuerySchema } from "@/lib/work/schema.ts";
import { handle, parseQuery } from "../../_lib/handle.ts";

/** The costs page's cost per unit of work by instance type and model, as CSV. */
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const q = parseQuery(unitCostQuerySchema, req.url);
  const month = q.month ?? monthOf(new Date());
  const r = await getUnitCostMonth(month, {
    ...(q.split ? { split: q.split } : {}),
    ...(q.host ? { hostId: q.host } : {}),
    metrics: getMetricsSource(),
    scope: teamScope(actor),
  });
  return new Response(unitCostsCsv(r), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="gpufleet-unit-costs-${month}.csv"`,
      "cache-control": "no-store",
    },
  });
});
