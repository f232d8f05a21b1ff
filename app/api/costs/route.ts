import { teamScope } from "@/lib/auth/scope.ts";
import { getCostMonth } from "@/lib/spend/get-cost-month.ts";
import { monthOf } from "@/lib/core/months.ts";
import { monthQuerySchema } from "@/lib/zod/schemas/month.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";

export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const { month } = parseQuery(monthQuerySchema, req.url);
  return json(await getCostMonth(month ?? monthOf(new Date()), { scope: teamScope(actor) }));
});
