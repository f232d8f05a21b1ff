import type { RuleKind } from "../zod/schemas/rule.ts";
import type { BackendState } from "./backend-state.ts";
import type { Condition, RuleFacts } from "./facts.ts";

// metrics_backend_down: ONE fleet-wide alert while the metrics backend (Prometheus mode) cannot be
// read. It opens once every probe has failed for more than `missedIntervals` collection
// intervals (default 2, counted from the first failed probe, plus a few seconds of slack: with
// the default 15 s interval, the fourth failed evaluation, 45 s in) and resolves at the first
// probe that answers (no resolve hold). Embedded mode has no backend to lose: the state is null
// and this rule never fires there.

const SLACK_MS = 5_000;

/** Rules that read GPU metrics: while the backend is down they report an error and are skipped. */
export const READS_METRICS: ReadonlySet<RuleKind> = new Set([
  "idle",
  "ecc",
  "temperature",
  "throttle",
]);

/**
 * Rules that judge hosts from what discovery learnt from the same backend (lastSeen, the spot
 * notice): while it is down they are held, their alerts kept as they are, never judged silent.
 */
export const READS_LIVENESS: ReadonlySet<RuleKind> = new Set([
  "exporter_down",
  "gpu_missing",
  "spot_interruption",
]);

export function evaluateBackendDown(
  rule: RuleFacts,
  state: BackendState | null,
  now: Date,
  intervalS: number,
  heldRules: readonly string[],
): Condition[] {
  if (state === null || state.ok) return [];
  const n = rule.params.missedIntervals;
  const missed = typeof n === "number" && n >= 1 ? n : 2;
  const downMs = now.getTime() - state.since.getTime();
  if (downMs <= missed * intervalS * 1000 + SLACK_MS) return [];
  const held = heldRules.length > 0 ? `; held until it answers: ${heldRules.join(", ")}` : "";
  return [
    {
      fingerprint: `${rule.id}:backend`,
      severity: "critical",
      hostId: null,
      gpuUuid: null,
      team: null,
      project: null,
      summary: `Metrics backend unreachable since ${state.since.toISOString()}: ${state.error ?? "no answer"}${held}`,
      details: {
        error: state.error,
        downSince: state.since.toISOString(),
        lastAnsweredAt: state.lastOkAt?.toISOString() ?? null,
        heldRules: [...heldRules],
      },
    },
  ];
}
