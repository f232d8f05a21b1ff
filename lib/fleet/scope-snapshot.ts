import { inTeamScope, type TeamScope } from "@/lib/auth/scope.ts";
import type { FleetSnapshot } from "./load-fleet-snapshot.ts";

/** The part of a snapshot a team-limited actor sees: their teams' hosts and those hosts' GPUs. */
export function scopeSnapshot(snapshot: FleetSnapshot, scope: TeamScope): FleetSnapshot {
  if (scope === null) return snapshot;
  const hosts = snapshot.hosts.filter((h) => inTeamScope(scope, h.team));
  const ids = new Set(hosts.map((h) => h.id));
  return {
    ...snapshot,
    hosts,
    current: snapshot.current.filter((g) => ids.has(g.hostId)),
    grid: snapshot.grid.filter((g) => ids.has(g.hostId)),
    prices: new Map([...snapshot.prices].filter(([id]) => ids.has(id))),
  };
}
