import type { AlertDto, AlertState, Severity } from "@/lib/zod/schemas/alert.ts";

// The alerts page folds the alerts one rule raised on one host (four idle GPUs of a machine, say)
// into one row: its count, the worst state and severity, the earliest start. A rule has one kind,
// so a group is always of one kind; two rules of the same kind stay apart (their thresholds,
// severities and routing differ). Alerts without a host (budgets, fleet-wide) are never grouped.
// Pure: no React, no fetching.

export interface AlertGroup {
  /** stable across refreshes: `rule:host` for a group, `alert:id` for an alert on its own */
  key: string;
  /** the group's alerts, by GPU index (then start); one for an alert on its own */
  alerts: AlertDto[];
  ids: string[];
  count: number;
  kind: AlertDto["kind"];
  ruleName: string;
  hostId: string | null;
  hostname: string | null;
  team: string | null;
  project: string | null;
  owner: string | null;
  /** the worst: firing, then acknowledged, then resolved */
  state: AlertState;
  stateCounts: Record<AlertState, number>;
  /** the worst: critical, then warning, then info */
  severity: Severity;
  /** the earliest start (ISO) */
  startsAt: string;
  snoozedCount: number;
  /** "held" / "empty" of idle alerts, each once, sorted */
  idleKinds: string[];
  /** GPU indexes named by the alerts' details, ascending */
  gpuIndexes: number[];
}

const STATE_RANK: Record<AlertState, number> = { firing: 0, acknowledged: 1, resolved: 2 };
const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

export function worstState(states: readonly AlertState[]): AlertState {
  return states.reduce<AlertState>((w, s) => (STATE_RANK[s] < STATE_RANK[w] ? s : w), "resolved");
}

export function worstSeverity(severities: readonly Severity[]): Severity {
  return severities.reduce<Severity>(
    (w, s) => (SEVERITY_RANK[s] < SEVERITY_RANK[w] ? s : w),
    "info",
  );
}

function gpuIndexOf(a: AlertDto): number | null {
  const i = a.details.gpuIndex;
  return typeof i === "number" && Number.isInteger(i) ? i : null;
}

function groupKey(a: AlertDto): string {
  return a.hostId === null ? `alert:${a.id}` : `${a.ruleId}:${a.hostId}`;
}

function byGpuThenStart(a: AlertDto, b: AlertDto): number {
  const ia = gpuIndexOf(a);
  const ib = gpuIndexOf(b);
  if (ia !== null && ib !== null && ia !== ib) return ia - ib;
  if (ia === null && ib !== null) return 1;
  if (ia !== null && ib === null) return -1;
  return a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.id < b.id ? -1 : 1;
}

function summarize(key: string, members: AlertDto[]): AlertGroup {
  const alerts = members.length > 1 ? [...members].sort(byGpuThenStart) : members;
  const first = alerts[0] as AlertDto;
  const stateCounts: Record<AlertState, number> = { firing: 0, acknowledged: 0, resolved: 0 };
  for (const a of alerts) stateCounts[a.state] += 1;
  const idleKinds = [
    ...new Set(
      alerts.flatMap((a) => (typeof a.details.idleKind === "string" ? [a.details.idleKind] : [])),
    ),
  ].sort();
  const gpuIndexes = [
    ...new Set(alerts.flatMap((a) => (gpuIndexOf(a) === null ? [] : [gpuIndexOf(a) as number]))),
  ].sort((x, y) => x - y);
  return {
    key,
    alerts,
    ids: alerts.map((a) => a.id),
    count: alerts.length,
    kind: first.kind,
    ruleName: first.ruleName,
    hostId: first.hostId,
    hostname: first.hostname,
    team: first.team,
    project: first.project,
    owner: first.owner,
    state: worstState(alerts.map((a) => a.state)),
    stateCounts,
    severity: worstSeverity(alerts.map((a) => a.severity)),
    startsAt: alerts.reduce((min, a) => (a.startsAt < min ? a.startsAt : min), first.startsAt),
    snoozedCount: alerts.filter((a) => a.snoozed).length,
    idleKinds,
    gpuIndexes,
  };
}

/**
 * Groups alerts by rule and host, in the order the list gives them (a group stands where its
 * first alert stood). Every alert is in exactly one group; most groups hold one alert.
 */
export function groupAlerts(alerts: readonly AlertDto[]): AlertGroup[] {
  const byKey = new Map<string, AlertDto[]>();
  for (const a of alerts) {
    const key = groupKey(a);
    const members = byKey.get(key);
    if (members) members.push(a);
    else byKey.set(key, [a]);
  }
  return [...byKey].map(([key, members]) => summarize(key, members));
}

/** "GPU 4", "GPUs 4–7", "GPUs 0, 2, 5": the indexes as a short label ("" when none are known). */
export function gpuLabel(indexes: readonly number[]): string {
  if (indexes.length === 0) return "";
  if (indexes.length === 1) return `GPU ${indexes[0]}`;
  const runs: string[] = [];
  let start = indexes[0] as number;
  let prev = start;
  for (const i of [...indexes.slice(1), Number.NaN]) {
    if (i === prev + 1) {
      prev = i;
      continue;
    }
    runs.push(
      prev - start >= 2 ? `${start}–${prev}` : start === prev ? `${start}` : `${start}, ${prev}`,
    );
    start = i;
    prev = i;
  }
  return `GPUs ${runs.join(", ")}`;
}
