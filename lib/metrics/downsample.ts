import type { SeriesPoint } from "./source.ts";

// Bucketing shared by the sources: a range becomes at most `maxPoints` buckets whose width is a
// whole number of minutes, and values in a bucket are averaged (weighted by how many they stand for).

export function bucketMs(from: Date, to: Date, maxPoints: number, minStepMs = 60_000): number {
  const span = Math.max(to.getTime() - from.getTime(), minStepMs);
  const raw = Math.ceil(span / Math.max(1, maxPoints));
  return Math.max(minStepMs, Math.ceil(raw / minStepMs) * minStepMs);
}

export interface WeightedValue {
  t: number;
  v: number | null;
  weight?: number;
}

/** Averages points into buckets of `step` ms aligned to the epoch; empty buckets are omitted. */
export function downsample(points: WeightedValue[], step: number): SeriesPoint[] {
  const buckets = new Map<number, { sum: number; w: number; any: boolean }>();
  for (const p of points) {
    const key = p.t - (p.t % step);
    const b = buckets.get(key) ?? { sum: 0, w: 0, any: false };
    if (p.v !== null && Number.isFinite(p.v)) {
      const w = p.weight ?? 1;
      b.sum += p.v * w;
      b.w += w;
      b.any = true;
    }
    buckets.set(key, b);
  }
  return [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, b]) => ({ t, v: b.any && b.w > 0 ? b.sum / b.w : null }));
}
