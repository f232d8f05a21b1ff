import "server-only";
import { auditData } from "../auth/audit.ts";
import type { Db } from "../db.ts";
import { backoffMs } from "../notify/deliver.ts";
import { ExecutorError, type Executor, type ScaleTarget } from "./executors/types.ts";

// Calling a scale executor for one signal, and what a failure leaves: like a stop (lifecycle.ts),
// a retryable failure (throttling, a scaling activity in progress, 5xx) is tried again with
// backoff up to maxAttempts; a refusal, or the last attempt, marks the signal "failed", which
// raises a `policy_action_failed` alert until a later signal of the pool acts (lifecycle.ts).
// A due retry is claimed by moving its nextAttemptAt (one conditional update), so two replicas
// never both call; a process that dies mid-call leaves it due again after claimTtlMs.

export interface ScaleRetry {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  claimTtlMs: number;
}

export type ScaleOutcome = "acted" | "retrying" | "failed";

interface Signal {
  id: string;
  attempts: number;
  nextAttemptAt: Date | null;
}

/** Claims a due retry of `s`; true when this process is the one to call the executor now. */
export async function claimScaleRetry(
  db: Db,
  s: Signal,
  now: Date,
  o: ScaleRetry,
): Promise<boolean> {
  if (!s.nextAttemptAt || s.nextAttemptAt > now) return false;
  const { count } = await db.policyScaleEvent.updateMany({
    where: { id: s.id, state: "retrying", nextAttemptAt: s.nextAttemptAt },
    data: { nextAttemptAt: new Date(now.getTime() + o.claimTtlMs) },
  });
  return count === 1;
}

/** Calls the executor for the signal and records the outcome (state, attempts, audit). */
export async function callScale(
  db: Db,
  policy: { id: string; executor: string },
  s: Signal,
  target: ScaleTarget,
  ex: Executor,
  now: Date,
  o: ScaleRetry,
): Promise<ScaleOutcome> {
  const attempt = s.attempts + 1;
  let outcome: ScaleOutcome = "acted";
  let detail: string;
  try {
    if (!ex.scale) throw new ExecutorError(`the ${ex.name} executor cannot scale`, false);
    detail = (await ex.scale(target)).detail;
  } catch (e) {
    const retryable = e instanceof ExecutorError ? e.retryable : true;
    outcome = !retryable || attempt >= o.maxAttempts ? "failed" : "retrying";
    detail = (e as Error).message.slice(0, 500);
  }
  await db.policyScaleEvent.update({
    where: { id: s.id },
    data: {
      state: outcome,
      detail,
      attempts: attempt,
      nextAttemptAt:
        outcome === "retrying" ? new Date(now.getTime() + backoffMs(attempt, o)) : null,
    },
  });
  const action = {
    acted: "policy.scale",
    retrying: "policy.scale.retry",
    failed: "policy.scale.failed",
  }[outcome];
  await db.auditEvent.create({
    data: auditData({
      actor: "system",
      action,
      target: target.pool,
      detail: {
        policyId: policy.id,
        signalId: s.id,
        executor: policy.executor,
        direction: target.direction,
        fromSize: target.fromSize,
        toSize: target.desired,
        attempt,
        detail,
      },
    }),
  });
  return outcome;
}
