import { teamScope } from "@/lib/auth/scope.ts";
import { policySavings } from "@/lib/policies/savings.ts";
import { monthQuerySchema } from "@/lib/zod/schemas/month.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

// Money not spent because a policy stopped hosts, this month (or ?month=YYYY-MM): per host, the
// stopped hours and price × those hours. Shown on the recommendations and costs pages apart from
// possible savings. A team-limited user sees their teams' hosts only.

export const GET = handle("recommendations:read", async (req: Request, _ctx: unknown, actor) => {
  const { month } = parseQuery(monthQuerySchema, req.url);
  return json(await policySavings(teamScope(actor), month ? { month } : {}));
});
