import { teamScope } from "@/lib/auth/scope.ts";
import { getFleetSeries } from "@/lib/fleet/get-fleet-series.ts";
import { rangeQuerySchema } from "@/lib/zod/schemas/range.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  const { range } = parseQuery(rangeQuerySchema, req.url);
  return json(await getFleetSeries(range, { scope: teamScope(actor) }));
});
