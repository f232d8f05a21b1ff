import { db } from "@/lib/db.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { recomputeRecommendations } from "@/lib/recommendations/recompute.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

// On demand; the collector also recomputes at start and daily.
export const POST = handle("recommendations:act", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await recomputeRecommendations(db, new Date(), undefined, getMetricsSource()));
});
