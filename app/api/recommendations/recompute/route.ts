import { recomputeNow } from "@/lib/recommendations/recompute-now.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

// On demand; the collector also recomputes at start and daily.
export const POST = handle("recommendations:act", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await recomputeNow());
});
