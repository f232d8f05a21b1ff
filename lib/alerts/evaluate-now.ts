import "server-only";
import { db } from "../db.ts";
import { env } from "../env.ts";
import type { EvaluateResult } from "../zod/schemas/alert.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";
import { getMetricsSource } from "../metrics/index.ts";

/** On-demand evaluation (API): the same pass the collector runs after each tick. */
export function evaluateNow(now: Date = new Date()): Promise<EvaluateResult> {
  return evaluateAlerts(db, {
    now,
    metrics: getMetricsSource(),
    intervalS: env.GPUFLEET_COLLECT_INTERVAL_S,
  });
}
