import { teamScope } from "@/lib/auth/scope.ts";
import { listAlerts } from "@/lib/alerts/list-alerts.ts";
import { alertListQuerySchema } from "@/lib/zod/schemas/alert.ts";
import { json, parseQuery } from "../_lib/handle.ts";
import { handleMine } from "../_lib/http.ts";

export const GET = handleMine("alerts:read", async (req: Request, _ctx: unknown, actor) => {
  const q = parseQuery(alertListQuerySchema, req.url);
  return json(await listAlerts(q, { scope: teamScope(actor) }));
});
