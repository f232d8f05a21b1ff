import "server-only";
import type { TickContext } from "../tick/context.ts";
import { loadEvalHosts, trackEpisodes, type EvalResult } from "./evaluate.ts";
import { executorFor } from "./executors/index.ts";
import {
  reconcileFailures,
  runLifecycle,
  type LifecycleOptions,
  type LifecycleResult,
} from "./lifecycle.ts";
import { trackRunEpisodes } from "./run-episodes.ts";
import { runScalePolicies, type ScaleResult } from "./scale.ts";
import { DEFAULT_WARN_DEPS } from "./warn.ts";

// The policies' job, run by the leader after each collection tick: track idle episodes for every
// enabled policy (dry run and active alike; a job's or pod's run in ./run-episodes.ts, so the dry-run list says what would happen and when),
// then warn and act for the active ones; then the scale policies' signals (./scale.ts).

export const DEFAULT_LIFECYCLE: Omit<LifecycleOptions, "executorFor"> = {
  warn: DEFAULT_WARN_DEPS,
  maxAttempts: 5,
  baseDelayMs: 60_000,
  maxDelayMs: 30 * 60_000,
  claimTtlMs: 5 * 60_000,
};

export async function runPolicyJob(
  ctx: TickContext,
  opts: Partial<LifecycleOptions> = {},
): Promise<EvalResult & LifecycleResult & ScaleResult> {
  const hosts = await loadEvalHosts(ctx.db, ctx.now);
  const tracked = await trackEpisodes(ctx, hosts);
  // jobs' and pods' runs (maximum run time per job or pod)
  const runs = await trackRunEpisodes(ctx, hosts);
  tracked.opened += runs.opened;
  tracked.closed += runs.closed;
  const o: LifecycleOptions = {
    ...DEFAULT_LIFECYCLE,
    executorFor: (p) => executorFor(ctx.db, p),
    ...opts,
  };
  const acted = await runLifecycle(ctx.db, hosts, ctx.now, o);
  const scaled = await runScalePolicies(ctx, hosts, o.executorFor, o);
  // a scale call that failed for good raises the failure alert now, one that acted resolves it
  if (scaled.scaled + scaled.scaleFailed > 0) await reconcileFailures(ctx.db, hosts, ctx.now);
  return { ...tracked, ...acted, ...scaled };
}
