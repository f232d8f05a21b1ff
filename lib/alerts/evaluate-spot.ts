import { INTERRUPTED_STATE } from "../ingest/host-state.ts";
import { hostInScope, ownerNote, type Condition, type HostFacts, type RuleFacts } from "./facts.ts";

// Spot interruption: the provider announced it will reclaim a spot host. Fires while the notice is
// pending (it resolves when the host answers without one) so the owner can checkpoint; once the
// host is gone it is "interrupted", which the exporter-down rule leaves alone.

/** "14:32 UTC" from an announced time. */
function hhmm(at: Date): string {
  return `${at.toISOString().slice(11, 16)} UTC`;
}

export function evaluateSpotInterruption(
  rule: RuleFacts,
  hosts: Iterable<HostFacts>,
  now: Date,
): Condition[] {
  const out: Condition[] = [];
  for (const h of hosts) {
    if (!h.interruptionPending || !hostInScope(rule, h)) continue;
    const at = h.interruptionAt ?? null;
    const when = at ? ` for ${hhmm(at)}` : "";
    const gone = h.state === INTERRUPTED_STATE ? "; the host has stopped answering" : "";
    out.push({
      fingerprint: `${rule.id}:host:${h.id}`,
      severity: "warning",
      hostId: h.id,
      gpuUuid: null,
      team: h.team,
      project: h.project,
      summary: `Spot reclaim announced${when} on ${h.hostname} (${h.instanceType})${gone}${ownerNote(h.owner)}`,
      details: {
        hostname: h.hostname,
        owner: h.owner,
        interruptionAt: at?.toISOString() ?? null,
        secondsLeft: at ? Math.round((at.getTime() - now.getTime()) / 1000) : null,
        state: h.state,
      },
    });
  }
  return out;
}
