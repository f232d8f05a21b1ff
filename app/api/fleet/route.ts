import { getFleetSummary } from "@/lib/fleet/get-fleet-summary.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";

export const GET = handle(async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await getFleetSummary());
});
