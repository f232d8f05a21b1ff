import { HOUR_MS, MINUTE_MS } from "../core/time.ts";

// The pure rules of a policy (idle release, maximum run time): which hosts it covers, the opt-out
// label, and when an episode's warnings fall due and when it may act (docs/architecture.md
// "Domain rules"). Both kinds count from the episode's `idleSince` (idle since, or running since).

export interface PolicyFacts {
  id: string;
  name: string;
  /** idle_release | max_runtime */
  kind: string;
  mode: string;
  action: string;
  idleHours: number;
  warnAt: number[];
  graceMinutes: number;
  scopeKind: string;
  scopeValue: string;
  optOutLabel: string;
  /** max_runtime: host (default) | job | pod */
  target?: string;
}

export interface HostScopeFacts {
  team: string;
  project: string;
  labels: Record<string, string>;
}

/**
 * `key=value` against a host's labels. A Prometheus label name cannot hold "." or "/", so the key
 * also matches in its sanitized form (`gpufleet.io/keep` → `gpufleet_io_keep`), as an exporter
 * flag or a Kubernetes label arrives through gpu_host_info or discovery.
 */
export function labelMatches(labels: Record<string, string>, match: string): boolean {
  const eq = match.indexOf("=");
  if (eq <= 0) return false;
  const key = match.slice(0, eq);
  const value = match.slice(eq + 1);
  return labels[key] === value || labels[key.replace(/[^A-Za-z0-9_]/g, "_")] === value;
}

export function hostInPolicyScope(p: PolicyFacts, h: HostScopeFacts): boolean {
  switch (p.scopeKind) {
    case "fleet":
      return true;
    case "team":
      return h.team === p.scopeValue;
    case "project":
      return h.project === p.scopeValue;
    case "label":
      return labelMatches(h.labels, p.scopeValue);
    default:
      return false;
  }
}

/** The host opted out (`gpufleet.io/keep=true` by default): never acted on, never warned. */
export function optedOut(p: PolicyFacts, h: HostScopeFacts): boolean {
  return labelMatches(h.labels, p.optOutLabel);
}

export function parseWarnAt(json: string): number[] {
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [0.5, 0.9];
    const out = v.filter((x): x is number => typeof x === "number" && x > 0 && x < 1);
    return out.length > 0 ? [...new Set(out)].sort((a, b) => a - b) : [0.5, 0.9];
  } catch {
    return [0.5, 0.9];
  }
}

export interface EpisodeTimes {
  idleSince: Date;
  warnings: number;
  lastWarnAt: Date | null;
  keepUntil: Date | null;
}

/** How many warnings are due by `now` (warnings fall at idleSince + fraction × idleHours). */
export function warningsDue(p: PolicyFacts, e: EpisodeTimes, now: Date): number {
  const elapsed = now.getTime() - e.idleSince.getTime();
  const ms = p.idleHours * HOUR_MS;
  let due = p.warnAt.filter((f) => elapsed >= f * ms).length;
  // a keep holds back further warnings until it ends
  if (e.keepUntil && now < e.keepUntil) due = Math.min(due, e.warnings);
  return due;
}

/**
 * When the policy acts: idle for idleHours, the last warning sent at least graceMinutes before,
 * and any keep over. Before the last warning is sent it is predicted from the schedule.
 */
export function actAt(p: PolicyFacts, e: EpisodeTimes): Date {
  const ms = p.idleHours * HOUR_MS;
  const last = p.warnAt[p.warnAt.length - 1] ?? 0;
  const lastWarn =
    e.warnings >= p.warnAt.length && e.lastWarnAt
      ? e.lastWarnAt.getTime()
      : Math.max(e.idleSince.getTime() + last * ms, e.keepUntil?.getTime() ?? 0);
  return new Date(
    Math.max(
      e.idleSince.getTime() + ms,
      lastWarn + p.graceMinutes * MINUTE_MS,
      e.keepUntil?.getTime() ?? 0,
    ),
  );
}
