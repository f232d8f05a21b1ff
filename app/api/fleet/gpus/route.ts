import { teamScope } from "@/lib/auth/scope.ts";
import { getFleetGpuPage } from "@/lib/fleet/get-fleet-gpus.ts";
import { fleetGpuQuerySchema } from "@/lib/zod/schemas/fleet.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  const query = parseQuery(fleetGpuQuerySchema, req.url);
  return json(await getFleetGpuPage(query, { scope: teamScope(actor) }));
});
