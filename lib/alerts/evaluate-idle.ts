import { divRoundHalfUp } from "../core/money.ts";
import { formatMoney } from "../format/money.ts";
import { formatBytes } from "../format/number.ts";
import { idleParamsSchema } from "../zod/schemas/rule.ts";
import {
  hostInScope,
  ownerNote,
  type Condition,
  type GpuFacts,
  type HostFacts,
  type RuleFacts,
} from "./facts.ts";
import type { GpuWindowStats } from "../metrics/source.ts";
import { SM_ACTIVE_IDLE } from "../core/idle.ts";

// Idle GPU: utilization under the threshold for the whole window (max over the window), told
// apart as HELD (memory allocated or a process attached: someone holds it and does nothing) or
// EMPTY (nothing on it: the GPU could be released). Where SM active (DCGM profiling) covers the
// window, SM active under 1 % throughout counts as idle whatever utilization says: a GPU spinning
// on one SM reads ~100 % utilization (docs/architecture.md "Domain rules").

/** Idle by SM active: readings over enough of the window, all of them under SM_ACTIVE_IDLE. */
export function smActiveIdle(s: GpuWindowStats): boolean {
  return (
    (s.smActiveCoverage ?? 0) >= MIN_COVERAGE &&
    s.smActiveMax !== undefined &&
    s.smActiveMax !== null &&
    s.smActiveMax < SM_ACTIVE_IDLE
  );
}

/** A GPU needs readings over at least this share of the window to be judged. */
export const MIN_COVERAGE = 0.5;

/** Window stats are per minute: the newest minute may start up to this long before "now". */
export function freshWithin(intervalS: number): number {
  return 2 * intervalS * 1000 + 2 * 60_000;
}

export function idleWindow(rule: RuleFacts, now: Date): { from: Date; to: Date } {
  const p = idleParamsSchema.parse(rule.params);
  return { from: new Date(now.getTime() - p.durationMinutes * 60_000), to: now };
}

export function evaluateIdle(
  rule: RuleFacts,
  stats: readonly GpuWindowStats[],
  hosts: ReadonlyMap<string, HostFacts>,
  gpus: ReadonlyMap<string, GpuFacts>,
  now: Date,
  intervalS: number,
): Condition[] {
  const p = idleParamsSchema.parse(rule.params);
  const out: Condition[] = [];
  for (const s of stats) {
    const host = hosts.get(s.hostId);
    if (!host || !hostInScope(rule, host)) continue;
    const bySm = smActiveIdle(s);
    if (!bySm && (s.utilCoverage < MIN_COVERAGE || s.utilMax === null)) continue;
    if (!s.lastAt || now.getTime() - s.lastAt.getTime() > freshWithin(intervalS)) continue;
    if (!bySm && (s.utilMax ?? 1) >= p.utilThreshold) continue;
    const procs = s.processesMax ?? 0;
    const mem = s.memMaxBytes ?? 0;
    const total = s.memTotalBytes ?? 0;
    const held = procs > 0 || (total > 0 && mem > p.heldMemRatio * total);
    if (p.notify === "held" && !held) continue;
    if (p.notify === "empty" && held) continue;
    const gpu = gpus.get(s.gpuUuid);
    const label = gpu ? `GPU ${gpu.index}` : s.gpuUuid;
    const gpuHourly =
      host.hourlyMicros === null || host.gpuCount === 0
        ? null
        : divRoundHalfUp(host.hourlyMicros, BigInt(host.gpuCount));
    const what = held
      ? `held but idle (${formatBytes(mem)} allocated, ${procs} process${procs === 1 ? "" : "es"})`
      : "empty and idle (no process, no memory)";
    const cost = gpuHourly === null ? "" : `; costs ${formatMoney(gpuHourly)}/h`;
    out.push({
      fingerprint: `${rule.id}:gpu:${s.gpuUuid}`,
      severity: "warning",
      hostId: host.id,
      gpuUuid: s.gpuUuid,
      team: host.team,
      project: host.project,
      summary: `${label} on ${host.hostname} ${what} for ${p.durationMinutes} min, ${bySm ? `SM active under ${SM_ACTIVE_IDLE * 100} %` : `under ${Math.round(p.utilThreshold * 100)} % SM`}${cost}${ownerNote(host.owner)}`,
      details: {
        idleKind: held ? "held" : "empty",
        hostname: host.hostname,
        owner: host.owner,
        gpuIndex: gpu?.index ?? null,
        gpuName: gpu?.name ?? null,
        utilMax: s.utilMax,
        utilAvg: s.utilAvg,
        smActiveMax: s.smActiveMax ?? null,
        idleBy: bySm ? "sm_active" : "utilization",
        memUsedBytes: mem,
        memTotalBytes: total,
        processes: procs,
        windowMinutes: p.durationMinutes,
        utilThreshold: p.utilThreshold,
        gpuHourlyMicros: gpuHourly === null ? null : gpuHourly.toString(),
      },
    });
  }
  return out;
}
