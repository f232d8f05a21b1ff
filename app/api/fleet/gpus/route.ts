import { teamScope } from "@/lib/auth/scope.ts";
import { getFleetGpuPage } from "@/lib/fleet/get-fleet-gpus.ts";
import { holderNamerFor } from "@/lib/settings/holder-names.ts";
import { fleetGpuQuerySchema } from "@/lib/zod/schemas/fleet.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  const query = parseQuery(fleetGpuQuerySchema, req.url);
  // holders are personal data: within the team scope only, pseudonyms for viewers if set
  const namer = await holderNamerFor(actor);
  return json(await getFleetGpuPage(query, { scope: teamScope(actor) }, namer.holder));
});
