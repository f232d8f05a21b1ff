import type { FleetSeries, GpuSeries, SeriesPoint } from "@/lib/metrics/source.ts";

// A fleet series over some hosts only, built from their per-GPU series (same range and step, so
// the same bucket times): utilization is the mean over GPUs with a value at that time, memory the
// sum, and reporting GPUs the count of GPUs with any value there.

interface Bucket {
  utilSum: number;
  utilN: number;
  mem: number;
  memAny: boolean;
  reporting: number;
}

export function combineGpuSeries(gpus: readonly GpuSeries[]): FleetSeries {
  const buckets = new Map<number, Bucket>();
  const at = (t: number): Bucket => {
    let b = buckets.get(t);
    if (!b) {
      b = { utilSum: 0, utilN: 0, mem: 0, memAny: false, reporting: 0 };
      buckets.set(t, b);
    }
    return b;
  };
  for (const g of gpus) {
    const seen = new Set<number>();
    for (const p of g.util) {
      const b = at(p.t);
      if (p.v === null) continue;
      b.utilSum += p.v;
      b.utilN += 1;
      seen.add(p.t);
    }
    for (const p of g.memUsedBytes) {
      const b = at(p.t);
      if (p.v === null) continue;
      b.mem += p.v;
      b.memAny = true;
      seen.add(p.t);
    }
    for (const t of seen) at(t).reporting += 1;
  }
  const times = [...buckets.keys()].sort((a, b) => a - b);
  const series = (pick: (b: Bucket) => number | null): SeriesPoint[] =>
    times.map((t) => ({ t, v: pick(at(t)) }));
  return {
    util: series((b) => (b.utilN > 0 ? b.utilSum / b.utilN : null)),
    memUsedBytes: series((b) => (b.memAny ? b.mem : null)),
    gpusReporting: series((b) => b.reporting),
  };
}
