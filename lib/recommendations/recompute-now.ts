import "server-only";
import { db } from "../db.ts";
import { getMetricsSource } from "../metrics/index.ts";
import type { RecomputeResult } from "../zod/schemas/recommendation.ts";
import { recomputeRecommendations } from "./recompute.ts";

/** On demand (POST /api/recommendations/recompute): the app's store and metrics source, now. */
export function recomputeNow(now: Date = new Date()): Promise<RecomputeResult> {
  return recomputeRecommendations(db, now, undefined, getMetricsSource());
}
