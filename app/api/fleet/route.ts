import { actorAllows } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { fleetSummaryJson } from "@/lib/fleet/fleet-json.ts";
import { sharedBodyResponse } from "@/lib/server/precompressed.ts";
import { handle, noQuery, parseQuery } from "../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  // budgets belong to finance: roles without the costs pages see burn and spend, not the budget
  const body = await fleetSummaryJson(teamScope(actor), actorAllows(actor, "costs:read"));
  // the same bytes for every caller of this variant, gzipped once (lib/server/precompressed.ts)
  return sharedBodyResponse(req, body, {
    "content-type": "application/json",
    "cache-control": "no-store",
  });
});
