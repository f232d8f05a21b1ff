import { HOUR_MS } from "../core/time.ts";
import type { GpuWindowStats } from "../metrics/source.ts";
import { monthlyFromHourly } from "./stats.ts";
import type { HourRow, HourWindow } from "./types.ts";

// Busy but inefficient: utilization.gpu is time-based (one busy SM reads ~100 %), so a GPU that
// reads over 80 % while SM active stays under 20 % for a whole hour is paid for and barely used
// (a stuck loop, a tiny kernel, a data-starved job). The cost is the GPU's ledger share of those
// hours. docs/architecture.md "Domain rules".

export const BUSY_UTIL = 0.8;
export const INEFFICIENT_SM_ACTIVE = 0.2;
/** Readings needed over an hour for it to be judged. */
export const MIN_HOUR_COVERAGE = 0.5;

/** One closed hour's window statistics (MetricsSource.gpuWindow over [hourStart, +1 h)). */
/** Whether one GPU-hour was busy but inefficient: mean util > 0.8, SM active < 0.2 throughout. */
export function isInefficientHour(s: GpuWindowStats): boolean {
  return (
    s.utilCoverage >= MIN_HOUR_COVERAGE &&
    s.utilAvg !== null &&
    s.utilAvg > BUSY_UTIL &&
    (s.smActiveCoverage ?? 0) >= MIN_HOUR_COVERAGE &&
    s.smActiveMax !== undefined &&
    s.smActiveMax !== null &&
    s.smActiveMax < INEFFICIENT_SM_ACTIVE
  );
}

export interface InefficientFinding {
  hostId: string;
  gpuUuid: string;
  /** the inefficient hours' starts, oldest first */
  hours: Date[];
  utilAvg: number;
  smActiveAvg: number | null;
  /** the GPU's ledger cost over those hours (GPU share × hours); hours not yet in the ledger add 0 */
  costMicros: bigint;
  /** hours in `hours` the ledger has priced */
  pricedHours: number;
  /** what the same waste costs over a month, from the mean cost of a priced inefficient hour */
  monthlyMicros: bigint;
  evidence: { from: string; to: string; metrics: Record<string, number | null> };
}

/**
 * Per GPU, the hours in `windows` that were busy but inefficient, with their cost from the
 * ledger's GPU rows (`rows`: any hosts' GPU rows, keyed by gpuKey = uuid and hourStart).
 */
export function busyInefficient(
  windows: readonly HourWindow[],
  rows: readonly HourRow[],
): InefficientFinding[] {
  const cost = new Map(rows.map((r) => [`${r.gpuKey}|${r.hourStart.getTime()}`, r.costMicros]));
  const byGpu = new Map<string, { hostId: string; hits: { at: Date; s: GpuWindowStats }[] }>();
  for (const w of [...windows].sort((a, b) => a.hourStart.getTime() - b.hourStart.getTime())) {
    for (const s of w.stats) {
      if (!isInefficientHour(s)) continue;
      const g = byGpu.get(s.gpuUuid) ?? { hostId: s.hostId, hits: [] };
      g.hits.push({ at: w.hourStart, s });
      byGpu.set(s.gpuUuid, g);
    }
  }
  const out: InefficientFinding[] = [];
  for (const [gpuUuid, { hostId, hits }] of byGpu) {
    let costMicros = 0n;
    let pricedHours = 0;
    for (const h of hits) {
      const c = cost.get(`${gpuUuid}|${h.at.getTime()}`);
      if (c === undefined) continue;
      costMicros += c;
      pricedHours += 1;
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const util = mean(hits.map((h) => h.s.utilAvg ?? 0));
    const sm = hits.flatMap((h) => (h.s.smActiveAvg == null ? [] : [h.s.smActiveAvg]));
    const first = hits[0]?.at ?? new Date(0);
    const last = hits.at(-1)?.at ?? first;
    out.push({
      hostId,
      gpuUuid,
      hours: hits.map((h) => h.at),
      utilAvg: util,
      smActiveAvg: sm.length > 0 ? mean(sm) : null,
      costMicros,
      pricedHours,
      monthlyMicros: pricedHours > 0 ? monthlyFromHourly(costMicros / BigInt(pricedHours)) : 0n,
      evidence: {
        from: first.toISOString(),
        to: new Date(last.getTime() + HOUR_MS).toISOString(),
        metrics: {
          hours: hits.length,
          utilAvg: util,
          smActiveAvg: sm.length > 0 ? mean(sm) : null,
          utilThreshold: BUSY_UTIL,
          smActiveThreshold: INEFFICIENT_SM_ACTIVE,
        },
      },
    });
  }
  return out.sort((a, b) =>
    a.costMicros === b.costMicros ? 0 : a.costMicros > b.costMicros ? -1 : 1,
  );
}
