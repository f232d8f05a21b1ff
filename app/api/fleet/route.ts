import { actorAllows } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { getFleetSummary } from "@/lib/fleet/get-fleet-summary.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  const summary = await getFleetSummary({ scope: teamScope(actor) });
  // budgets belong to finance: roles without the costs pages see burn and spend, not the budget
  if (actorAllows(actor, "costs:read")) return json(summary);
  return json({ ...summary, month: { ...summary.month, budgetMicros: null } });
});
