import "server-only";
import type { TickContext } from "../tick/context.ts";
import { loadEvalHosts, trackEpisodes, type EvalResult } from "./evaluate.ts";
import { executorFor } from "./executors/index.ts";
import { runLifecycle, type LifecycleOptions, type LifecycleResult } from "./lifecycle.ts";
import { DEFAULT_WARN_DEPS } from "./warn.ts";

// The policies' job, run by the leader after each collection tick: track idle episodes for every
// enabled policy (dry run and active alike, so the dry-run list says what would happen and when),
// then warn and act for the active ones.

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
): Promise<EvalResult & LifecycleResult> {
  const hosts = await loadEvalHosts(ctx.db, ctx.now);
  const tracked = await trackEpisodes(ctx, hosts);
  const acted = await runLifecycle(ctx.db, hosts, ctx.now, {
    ...DEFAULT_LIFECYCLE,
    executorFor: (p) => executorFor(ctx.db, p),
    ...opts,
  });
  return { ...tracked, ...acted };
}
