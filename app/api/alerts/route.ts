import { teamScope } from "@/lib/auth/scope.ts";
import { listAlerts } from "@/lib/alerts/list-alerts.ts";
import { alertListQuerySchema } from "@/lib/zod/schemas/alert.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";

export const GET = handle("alerts:read", async (req: Request, _ctx: unknown, actor) => {
  const q = parseQuery(alertListQuerySchema, req.url);
  return json(await listAlerts(q, { scope: teamScope(actor) }));
});
