import { evaluateNow } from "@/lib/alerts/evaluate-now.ts";
import { json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { handleMine } from "../../_lib/http.ts";

// Runs every rule now (the collector also does after each tick); safe alongside it.
export const POST = handleMine("alerts:act", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await evaluateNow());
});
