import "server-only";
import { DAY_MS } from "../core/time.ts";
import type { TickContext } from "../tick/context.ts";
import { LAST_RUN, recomputeRecommendations } from "./recompute.ts";

// Recomputed once when the process starts (so the page is filled from the first minute) and then
// daily; the API's recompute endpoint runs it on demand. Runs in the background: never holds a tick.

let ranThisProcess = false;
let running: Promise<void> | null = null;

export async function recommendationsDue(ctx: TickContext): Promise<boolean> {
  if (!ranThisProcess) return true;
  const last = await ctx.db.jobState.findUnique({ where: { name: LAST_RUN } });
  const at = last ? Date.parse(last.value) : NaN;
  return Number.isNaN(at) || ctx.now.getTime() - at >= DAY_MS;
}

export async function runRecommendationJob(ctx: TickContext): Promise<void> {
  if (running || !(await recommendationsDue(ctx))) return;
  ranThisProcess = true;
  running = recomputeRecommendations(ctx.db, ctx.now, undefined, ctx.metrics)
    .then(() => undefined)
    .catch((e: unknown) => console.error(`[recommendations] ${(e as Error).message}`))
    .finally(() => {
      running = null;
    });
}
