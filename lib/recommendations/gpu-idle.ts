import { pushTo } from "../core/group.ts";
import { mulDivRound } from "../core/money.ts";
import { HOURS_PER_MONTH } from "../zod/schemas/recommendation.ts";
import { p95, within } from "./stats.ts";
import type { HourRow, RecoInput, RecoOptions } from "./types.ts";

// GPU-level idle over a window, from the ledger's per-GPU rows. The host row counts an hour idle
// only while every GPU is idle, so a host with half its GPUs idle all month reads 0 % idle there;
// the GPU rows see it: half its GPU-hours idle, and at most half its GPUs busy at once.

export interface GpuIdleFacts {
  from: Date;
  to: Date;
  /** physical GPUs with ledger rows in the window */
  gpuCount: number;
  /** GPU-seconds up, idle, and idle with memory held, summed over the GPUs */
  upSeconds: number;
  idleSeconds: number;
  idleHeldSeconds: number;
  /** idle GPU-seconds ÷ up GPU-seconds */
  idleShare: number;
  /** hours with any GPU up, and the seconds the host ran (per hour, its longest-up GPU) */
  hours: number;
  runSeconds: number;
  /** p95 (nearest rank) over those hours of the GPUs busy at once */
  busyP95: number;
  /** GPUs the work needs (at least 1) and the GPUs beyond that */
  needed: number;
  surplus: number;
  /** peak memory any one GPU held in the window */
  memPeakBytes: bigint | null;
  /** the ledger's idle cost of the GPU rows over the window */
  idleCostMicros: bigint;
  /** that idle cost at its observed rate over 730 running hours */
  idleMonthlyMicros: bigint;
}

/** A GPU is busy in an hour unless the hour counts as idle for it (idle ≥ idleShare of up). */
function busyIn(r: HourRow, o: RecoOptions): boolean {
  return r.upSeconds > 0 && r.idleSeconds < o.idleShare * r.upSeconds;
}

/** The ledger's idle cost of a row; rows read without the column split their cost by idle time. */
function idleCostOf(r: HourRow): bigint {
  if (r.idleCostMicros !== undefined) return r.idleCostMicros;
  return r.upSeconds > 0
    ? mulDivRound(r.costMicros, BigInt(r.idleSeconds), BigInt(r.upSeconds))
    : 0n;
}

/**
 * GPU-level idle of `input.host` over [from, to). Null for MIG hosts (a slice's share of its GPU
 * is not a whole GPU) and where the window holds no GPU row that was up: callers then fall back
 * to the host rows.
 */
export function gpuIdleFacts(
  input: RecoInput,
  from: Date,
  to: Date,
  o: RecoOptions,
): GpuIdleFacts | null {
  const { host } = input;
  if (host.gpus.some((g) => g.migMode || g.parentUuid !== null)) return null;
  const inWindow = within(input.rows, from, to);
  if (inWindow.some((r) => r.parentKey !== null)) return null;
  const rows = inWindow.filter((r) => r.gpuKey !== "host");
  const byHour = new Map<number, HourRow[]>();
  for (const r of rows) {
    const t = r.hourStart.getTime();
    pushTo(byHour, t, r);
  }
  const busyCounts: number[] = [];
  let runSeconds = 0;
  for (const hour of byHour.values()) {
    const longest = Math.max(...hour.map((r) => r.upSeconds));
    if (longest <= 0) continue;
    runSeconds += longest;
    busyCounts.push(hour.filter((r) => busyIn(r, o)).length);
  }
  const upSeconds = rows.reduce((s, r) => s + r.upSeconds, 0);
  if (upSeconds === 0 || runSeconds === 0) return null;
  const idleSeconds = rows.reduce((s, r) => s + r.idleSeconds, 0);
  let memPeakBytes: bigint | null = null;
  let idleCostMicros = 0n;
  for (const r of rows) {
    if (r.memPeakBytes !== null && (memPeakBytes === null || r.memPeakBytes > memPeakBytes))
      memPeakBytes = r.memPeakBytes;
    idleCostMicros += idleCostOf(r);
  }
  const gpuCount = new Set(rows.map((r) => r.gpuKey)).size;
  const busyP95 = p95(busyCounts) ?? 0;
  const needed = Math.max(1, busyP95);
  return {
    from,
    to,
    gpuCount,
    upSeconds,
    idleSeconds,
    idleHeldSeconds: rows.reduce((s, r) => s + r.idleHeldSeconds, 0),
    idleShare: idleSeconds / upSeconds,
    hours: busyCounts.length,
    runSeconds,
    busyP95,
    needed,
    surplus: Math.max(0, gpuCount - needed),
    memPeakBytes,
    idleCostMicros,
    idleMonthlyMicros: mulDivRound(
      idleCostMicros,
      BigInt(HOURS_PER_MONTH * 3600),
      BigInt(runSeconds),
    ),
  };
}

/**
 * Right-size before reserving: a host with more than one GPU, over `gpuIdleShareMax` of its
 * GPU-hours idle, and at least one GPU more than the work keeps busy at once (p95).
 */
export function rightSizeFirst(f: GpuIdleFacts | null, o: RecoOptions): f is GpuIdleFacts {
  return f !== null && f.gpuCount > 1 && f.idleShare > o.gpuIdleShareMax && f.surplus >= 1;
}
