import { teamScope } from "@/lib/auth/scope.ts";
import { listPlannedActions } from "@/lib/policies/plan.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

// What the policies would do (dry run) or are about to do (active): host, action, when, and the
// $ a month it saves. A team-limited user sees their teams' hosts only.

export const GET = handle("policies:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  return json(await listPlannedActions(teamScope(actor)));
});
