import "server-only";
import type { TickContext } from "../tick/context.ts";
import { env } from "../env.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";

// The collector's alert job: evaluates every rule after each tick (the leader only).

export async function runAlertJob(ctx: TickContext): Promise<void> {
  const r = await evaluateAlerts(ctx.db, {
    now: ctx.now,
    metrics: ctx.metrics,
    intervalS: env.GPUFLEET_COLLECT_INTERVAL_S,
  });
  if (r.errors.length > 0) console.error(`[alerts] ${r.errors.join("; ")}`);
}
