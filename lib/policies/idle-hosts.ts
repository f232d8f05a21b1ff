import { IDLE_UTIL, SM_ACTIVE_IDLE } from "../core/idle.ts";
import type { GpuWindowStats } from "../metrics/source.ts";

// Which hosts are WHOLLY idle over a window: every physical GPU the store knows for the host has
// readings over at least half the window and stayed under the idle threshold throughout (or, where
// SM active covers the window, under 1 % SM active: docs/architecture.md "Domain rules"). A host
// with one busy GPU, or one GPU without readings, is not idle: a policy never stops it.

const MIN_COVERAGE = 0.5;

export function gpuIdle(s: GpuWindowStats, threshold = IDLE_UTIL): boolean {
  const bySm =
    (s.smActiveCoverage ?? 0) >= MIN_COVERAGE &&
    s.smActiveMax !== undefined &&
    s.smActiveMax !== null &&
    s.smActiveMax < SM_ACTIVE_IDLE;
  if (bySm) return true;
  return s.utilCoverage >= MIN_COVERAGE && s.utilMax !== null && s.utilMax < threshold;
}

/**
 * Host ids whose every GPU (`gpusByHost`: physical GPU uuids per host) was idle over the window
 * the stats cover. A GPU missing from the stats counts as not idle.
 */
export function whollyIdleHosts(
  stats: readonly GpuWindowStats[],
  gpusByHost: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  const idle = new Map<string, boolean>();
  for (const s of stats) idle.set(`${s.hostId}\u0000${s.gpuUuid}`, gpuIdle(s));
  const out = new Set<string>();
  for (const [hostId, uuids] of gpusByHost) {
    if (uuids.length === 0) continue;
    if (uuids.every((u) => idle.get(`${hostId}\u0000${u}`) === true)) out.add(hostId);
  }
  return out;
}
