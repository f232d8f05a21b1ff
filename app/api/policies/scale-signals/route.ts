import { teamScope } from "@/lib/auth/scope.ts";
import { listScaleSignals } from "@/lib/policies/scale.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

// The scale policies' newest signals: pool, direction, the pool's figures, the size it would set
// (dry run) or set (active), and how the executor answered. A team-limited user sees the signals
// of their teams' policies only.

export const GET = handle("policies:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  return json(await listScaleSignals(teamScope(actor)));
});
