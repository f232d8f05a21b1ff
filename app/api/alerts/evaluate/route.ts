import { evaluateNow } from "@/lib/alerts/evaluate-now.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

// Runs every rule now (the collector also does after each tick); safe alongside it.
export const POST = handle("alerts:act", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await evaluateNow());
});
