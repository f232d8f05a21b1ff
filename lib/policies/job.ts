import "server-only";
import type { TickContext } from "../tick/context.ts";
import { loadEvalHosts, trackEpisodes, type EvalResult } from "./evaluate.ts";

// The policies' job, run by the leader after each collection tick: track idle episodes for every
// enabled policy (dry run and active alike, so the dry-run list says what would happen and when).

export async function runPolicyJob(ctx: TickContext): Promise<EvalResult> {
  const hosts = await loadEvalHosts(ctx.db, ctx.now);
  return trackEpisodes(ctx, hosts);
}
