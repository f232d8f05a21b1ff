import { actorAllows } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { fleetSummaryJson } from "@/lib/fleet/fleet-json.ts";
import { handle, noQuery, parseQuery } from "../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  // budgets belong to finance: roles without the costs pages see burn and spend, not the budget
  const body = await fleetSummaryJson(teamScope(actor), actorAllows(actor, "costs:read"));
  return new Response(body, {
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
});
