import {
  ExecutorError,
  type ActionTarget,
  type Executor,
  type ExecutorResult,
} from "./executors/types.ts";
import { HOURS_PER_MONTH as MONTH_HOURS } from "../zod/schemas/recommendation.ts";

// A right-size episode (accepted from a recommendation, ./accept-resize.ts): an idle-release
// policy's episode carrying resizeTo, which its lifecycle resizes instead of stopping, then closes
// (the host keeps running on the smaller type; it is no stop, so it has no realized savings row).

// the recommendations' month (730 h: 8,760 h a year ÷ 12)
const HOURS_PER_MONTH = BigInt(MONTH_HOURS);

export interface ResizeFacts {
  from: string;
  to: string;
  /** what the resize saves per month (the accepted hourly saving × 730 h); null when unknown */
  monthlySavingMicros: bigint | null;
}

export function resizeOf(
  e: { resizeTo: string | null; resizeFrom: string | null; resizeSavingMicros: bigint | null },
  h: { instanceType: string },
): ResizeFacts | null {
  if (!e.resizeTo) return null;
  return {
    from: e.resizeFrom ?? h.instanceType,
    to: e.resizeTo,
    monthlySavingMicros:
      e.resizeSavingMicros === null ? null : e.resizeSavingMicros * HOURS_PER_MONTH,
  };
}

/** Runs the episode's action: the policy's stop/terminate, or the resize it was accepted for. */
export async function runEpisodeAction(
  executor: Executor,
  target: ActionTarget,
  resize: ResizeFacts | null,
): Promise<ExecutorResult> {
  if (!resize) return executor.run(target);
  if (!executor.resize)
    throw new ExecutorError(`the ${executor.name} executor cannot resize a host`, false);
  return executor.resize({
    ...target,
    action: "resize",
    fromInstanceType: resize.from,
    toInstanceType: resize.to,
  });
}
