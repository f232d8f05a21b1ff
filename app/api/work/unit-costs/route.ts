import { teamScope } from "@/lib/auth/scope.ts";
import { monthOf } from "@/lib/core/months.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { getUnitCostMonth } from "@/lib/work/get-unit-cost-month.ts";
import { unitCostQuerySchema } from "@/lib/work/schema.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

/** Measured cost per unit of work (finance and admin): the caller's teams' hosts only. */
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const q = parseQuery(unitCostQuerySchema, req.url);
  return json(
    await getUnitCostMonth(q.month ?? monthOf(new Date()), {
      ...(q.split ? { split: q.split } : {}),
      ...(q.host ? { hostId: q.host } : {}),
      metrics: getMetricsSource(),
      scope: teamScope(actor),
    }),
  );
});
