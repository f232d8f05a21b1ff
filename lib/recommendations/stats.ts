import { DAY_MS } from "../core/time.ts";
import { HOURS_PER_MONTH, type EvidencePoint } from "../zod/schemas/recommendation.ts";
import type { PriceLookup } from "../pricing/lookup.ts";
import type { HourRow } from "./types.ts";

// Shared arithmetic: nearest-rank p95, per-day evidence points and exact monthly savings.

export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1] ?? null;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

export function monthlyFromHourly(hourlyMicros: bigint): bigint {
  return hourlyMicros * BigInt(HOURS_PER_MONTH);
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

/** Rows (of one subject) per UTC day over [from, to), as percentages for the evidence chart. */
export function dailySeries(rows: readonly HourRow[], from: Date, to: Date): EvidencePoint[] {
  const out: EvidencePoint[] = [];
  const first = from.getTime() - (from.getTime() % DAY_MS);
  for (let day = first; day < to.getTime(); day += DAY_MS) {
    const mine = rows.filter((r) => {
      const t = r.hourStart.getTime();
      return t >= day && t < day + DAY_MS && t >= from.getTime() && t < to.getTime();
    });
    const span = Math.min(day + DAY_MS, to.getTime()) - Math.max(day, from.getTime());
    const up = mine.reduce((s, r) => s + r.upSeconds, 0);
    const idle = mine.reduce((s, r) => s + r.idleSeconds, 0);
    let peak: bigint | null = null;
    let total: bigint | null = null;
    for (const r of mine) {
      if (r.memPeakBytes !== null && (peak === null || r.memPeakBytes > peak))
        peak = r.memPeakBytes;
      if (r.memTotalBytes !== null && (total === null || r.memTotalBytes > total))
        total = r.memTotalBytes;
    }
    out.push({
      t: day,
      utilP95: pct(p95(mine.flatMap((r) => (r.utilP95 === null ? [] : [r.utilP95])))),
      utilMean: pct(mean(mine.flatMap((r) => (r.utilMean === null ? [] : [r.utilMean])))),
      memPeakPct:
        peak === null || total === null || total === 0n
          ? null
          : Number((peak * 1000n) / total) / 10,
      idlePct: up > 0 ? pct(idle / up) : null,
      upPct: span > 0 ? pct(Math.min(1, (up * 1000) / span)) : null,
    });
  }
  return out;
}

export function priceRef(instanceType: string, pricingModel: string, p: PriceLookup) {
  if (!p.priced) return null;
  return {
    instanceType,
    pricingModel,
    usdPerHourMicros: p.usdPerHourMicros.toString(),
    gpuModel: p.gpuModel,
    gpuCount: p.gpuCount,
    source: p.source,
  };
}

export function hostRowsOf(rows: readonly HourRow[]): HourRow[] {
  return rows
    .filter((r) => r.gpuKey === "host")
    .sort((a, b) => a.hourStart.getTime() - b.hourStart.getTime());
}

export function within(rows: readonly HourRow[], from: Date, to: Date): HourRow[] {
  return rows.filter((r) => r.hourStart >= from && r.hourStart < to);
}

/** Hourly money as "$1.23/h" text without float: micros → dollars with 2-4 decimals. */
export function hourly(micros: bigint): string {
  const cents4 = (micros + 50n) / 100n; // 1/10,000 dollars, half-up
  const whole = cents4 / 10_000n;
  const frac = (cents4 % 10_000n)
    .toString()
    .padStart(4, "0")
    .replace(/0{1,2}$/, "");
  return `$${whole}.${frac}/h`;
}
