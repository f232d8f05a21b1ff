import type { ChannelHealth } from "../zod/schemas/channel.ts";

// A channel is FAILING when its recent delivery attempts keep failing (3 in a row), so a broken
// webhook shows up on the settings page instead of silently dropping alerts.

export const FAILING_AFTER = 3;

export function channelHealth(input: {
  enabled: boolean;
  /** newest first */
  recentAttempts: readonly { at: Date; ok: boolean; error: string | null }[];
  pending: number;
  delivered: number;
  failed: number;
}): ChannelHealth {
  let consecutiveFailures = 0;
  for (const a of input.recentAttempts) {
    if (a.ok) break;
    consecutiveFailures++;
  }
  const last = input.recentAttempts[0];
  const lastError = input.recentAttempts.find((a) => !a.ok)?.error ?? null;
  const status: ChannelHealth["status"] = !input.enabled
    ? "disabled"
    : !last
      ? "unused"
      : consecutiveFailures >= FAILING_AFTER || (input.failed > 0 && !last.ok)
        ? "failing"
        : "ok";
  return {
    status,
    consecutiveFailures,
    lastAttemptAt: last ? last.at.toISOString() : null,
    lastError: consecutiveFailures > 0 ? lastError : null,
    pending: input.pending,
    delivered: input.delivered,
    failed: input.failed,
  };
}
