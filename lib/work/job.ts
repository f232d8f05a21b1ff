import "server-only";
import type { TickContext } from "@/lib/tick/context.ts";
import { reportDueTrials, syncLabelTrials } from "./trials.ts";

// Trial rentals' job: label-marked trials opened and ended, ended trials reported. Cheap (a few
// queries), but a report reads a month of work: at most once a minute.

let last = 0;

export async function runWorkTrialJob(ctx: TickContext): Promise<void> {
  if (ctx.now.getTime() - last < 60_000) return;
  last = ctx.now.getTime();
  await syncLabelTrials(ctx.db, ctx.now);
  await reportDueTrials(ctx.db, ctx.metrics, ctx.now);
}
