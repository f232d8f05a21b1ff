import { teamScope } from "@/lib/auth/scope.ts";
import { listInstances } from "@/lib/fleet/list-instances.ts";
import { tableQuerySchema } from "@/lib/zod/schemas/instance-query.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  const query = parseQuery(tableQuerySchema, req.url);
  return json(await listInstances(query, { scope: teamScope(actor) }));
});
