// One pass over a host's samples for one hour: how long each GPU was seen up, its utilization and
// memory, and how long it was idle under the idle rule. Pure; times are epoch milliseconds.
import { HOUR_MS } from "../core/time.ts";
import type { GpuSample, HostSample, IdleRule } from "./ledger-types.ts";
import { SM_ACTIVE_IDLE } from "../core/idle.ts";

export interface UnitStats {
  uuid: string;
  model: string | null;
  parentUuid: string | null;
  fraction: number | null;
  upMs: number;
  /** Up samples taken inside the hour that included this GPU. */
  samples: number;
  utils: number[];
  memPeak: number | null;
  memTotal: number | null;
  idleMs: number;
  idleHeldMs: number;
}

export interface HostStats {
  upMs: number;
  samples: number;
  /** Highest total memory used across the host's physical GPUs in one sample. */
  memPeakSum: number | null;
  /** Time during which every GPU (each MIG slice standing for its parent) was idle. */
  idleMs: number;
  idleHeldMs: number;
}

export interface HourScan {
  host: HostStats;
  units: UnitStats[];
}

export function newUnit(uuid: string): UnitStats {
  return {
    uuid,
    model: null,
    parentUuid: null,
    fraction: null,
    upMs: 0,
    samples: 0,
    utils: [],
    memPeak: null,
    memTotal: null,
    idleMs: 0,
    idleHeldMs: 0,
  };
}

function maxOrSelf(current: number | null, value: number): number {
  return current === null || value > current ? value : current;
}

export function isLow(g: GpuSample, rule: IdleRule): boolean {
  // SM active, where profiling gives it, beats time-based utilization (docs/architecture.md)
  if (g.smActive != null && Number.isFinite(g.smActive) && g.smActive < SM_ACTIVE_IDLE) return true;
  // Without a utilization reading (MIG slices, N/A) the only signal left is "nothing runs on it".
  if (g.util === null || !Number.isFinite(g.util)) return g.processes === 0;
  return g.util < rule.utilThreshold;
}

function isHeld(g: GpuSample, rule: IdleRule): boolean {
  return g.processes > 0 || g.memUsedBytes > rule.heldMemRatio * g.memTotalBytes;
}

/**
 * An up sample covers [t, t + min(interval, gap to next)) clipped to the hour. A low stretch starts
 * at its first low sample; a busy sample, failed scrape, missing GPU or gap > 2 intervals ends it.
 */
export function scanHour(
  samples: readonly HostSample[],
  hourStart: Date,
  intervalSeconds: number,
  rule: IdleRule,
): HourScan {
  const startMs = hourStart.getTime();
  const endMs = startMs + HOUR_MS;
  const intervalMs = intervalSeconds * 1000;
  const minIdleMs = rule.minIdleSeconds * 1000;
  const sorted = samples
    .filter((s) => s.t.getTime() < endMs)
    .sort((x, y) => x.t.getTime() - y.t.getTime());

  const host: HostStats = { upMs: 0, samples: 0, memPeakSum: null, idleMs: 0, idleHeldMs: 0 };
  const units = new Map<string, UnitStats>();
  const lowSince = new Map<string, number>();
  let prevT: number | null = null;

  sorted.forEach((s, i) => {
    const t = s.t.getTime();
    const next = sorted[i + 1];
    const span = next ? Math.min(intervalMs, next.t.getTime() - t) : intervalMs;
    const a = Math.max(t, startMs);
    const b = Math.min(t + span, endMs);
    const covered = Math.max(0, b - a);
    const inHour = t >= startMs;
    if (prevT !== null && t - prevT > 2 * intervalMs) lowSince.clear();
    prevT = t;
    if (!s.up) {
      lowSince.clear();
      return;
    }
    host.upMs += covered;
    if (inHour) host.samples += 1;

    const present = new Set(s.gpus.map((g) => g.uuid));
    for (const uuid of [...lowSince.keys()]) if (!present.has(uuid)) lowSince.delete(uuid);
    const parents = new Set(s.gpus.flatMap((g) => (g.migParentUuid ? [g.migParentUuid] : [])));

    let allIdle = true;
    let counted = 0;
    let hostIdleFrom = a;
    let anyHeld = false;
    let memSum: number | null = null;

    for (const g of s.gpus) {
      const u = units.get(g.uuid) ?? newUnit(g.uuid);
      units.set(g.uuid, u);
      u.model = g.model;
      u.parentUuid = g.migParentUuid ?? null;
      if (g.migFraction !== undefined) u.fraction = g.migFraction;
      u.upMs += covered;
      if (inHour) {
        u.samples += 1;
        if (g.util !== null && Number.isFinite(g.util)) u.utils.push(g.util);
        u.memPeak = maxOrSelf(u.memPeak, g.memUsedBytes);
        u.memTotal = maxOrSelf(u.memTotal, g.memTotalBytes);
      }
      if (!g.migParentUuid) memSum = (memSum ?? 0) + g.memUsedBytes;

      const low = isLow(g, rule);
      const since = lowSince.get(g.uuid) ?? t;
      if (low) lowSince.set(g.uuid, since);
      else lowSince.delete(g.uuid);
      // A MIG parent's own idleness is decided from its slices (see ledger-math).
      if (parents.has(g.uuid)) continue;
      counted += 1;
      const idleFrom = Math.max(a, since + minIdleMs);
      const held = isHeld(g, rule);
      if (low && b > idleFrom) {
        u.idleMs += b - idleFrom;
        if (held) u.idleHeldMs += b - idleFrom;
      }
      allIdle &&= low;
      hostIdleFrom = Math.max(hostIdleFrom, idleFrom);
      anyHeld ||= held;
    }

    if (inHour && memSum !== null) host.memPeakSum = maxOrSelf(host.memPeakSum, memSum);
    if (counted > 0 && allIdle && b > hostIdleFrom) {
      host.idleMs += b - hostIdleFrom;
      if (anyHeld) host.idleHeldMs += b - hostIdleFrom;
    }
  });

  return { host, units: [...units.values()] };
}
