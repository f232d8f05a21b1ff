import type { GpuReading, MigReading } from "./snapshot.ts";
import { holderKey, type HolderMemory } from "../core/holders.ts";

// Running 1-minute aggregates per GPU, kept in memory between scrapes of the same minute and
// written (upserted) after every scrape so a restart loses at most the current minute's mean.

export interface MinuteAgg {
  minuteStart: number;
  samples: number;
  util: Mean;
  memUtil: Mean;
  powerWatts: Mean;
  tempCelsius: Mean;
  smClockHz: Mean;
  smActive: Mean;
  tensorActive: Mean;
  memUsedBytes: number | null;
  memTotalBytes: number | null;
  processes: number | null;
  /** holder key → the holder and its memory summed over the minute's samples (mean = sum ÷ samples) */
  holders: Map<string, HolderMemory>;
}

interface Mean {
  sum: number;
  n: number;
}

export function minuteStartOf(t: number): number {
  return t - (t % 60_000);
}

function add(m: Mean, v: number | null): void {
  if (v === null || !Number.isFinite(v)) return;
  m.sum += v;
  m.n += 1;
}

export function meanOf(m: Mean): number | null {
  return m.n === 0 ? null : m.sum / m.n;
}

function maxOf(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

function fresh(minuteStart: number): MinuteAgg {
  const z = (): Mean => ({ sum: 0, n: 0 });
  return {
    minuteStart,
    samples: 0,
    util: z(),
    memUtil: z(),
    powerWatts: z(),
    tempCelsius: z(),
    smClockHz: z(),
    smActive: z(),
    tensorActive: z(),
    memUsedBytes: null,
    memTotalBytes: null,
    processes: null,
    holders: new Map(),
  };
}

/** Folds one reading into the aggregate for its minute, starting a new one at a minute change. */
export function accumulate(
  prev: MinuteAgg | undefined,
  at: number,
  r: GpuReading | MigReading,
  processes: number | null,
  holders: readonly HolderMemory[] = [],
): MinuteAgg {
  const minute = minuteStartOf(at);
  const agg = prev && prev.minuteStart === minute ? prev : fresh(minute);
  agg.samples += 1;
  if ("util" in r) {
    add(agg.util, r.util);
    add(agg.memUtil, r.memUtil);
    add(agg.powerWatts, r.powerWatts);
    add(agg.tempCelsius, r.tempCelsius);
    add(agg.smClockHz, r.smClockHz);
    add(agg.smActive, r.smActive ?? null);
    add(agg.tensorActive, r.tensorActive ?? null);
  }
  agg.memUsedBytes = maxOf(agg.memUsedBytes, r.memUsedBytes);
  agg.memTotalBytes = r.memTotalBytes ?? agg.memTotalBytes;
  agg.processes = maxOf(agg.processes, processes);
  for (const h of holders) {
    const k = holderKey(h.holder);
    const prev = agg.holders.get(k);
    if (prev) prev.memBytes += h.memBytes;
    else agg.holders.set(k, { holder: h.holder, memBytes: h.memBytes });
  }
  return agg;
}

/** The minute's holders with their mean memory over its samples, largest first; null when none. */
export function holdersOf(agg: MinuteAgg): HolderMemory[] | null {
  if (agg.holders.size === 0 || agg.samples === 0) return null;
  return [...agg.holders.values()]
    .map((h) => ({ holder: h.holder, memBytes: Math.round(h.memBytes / agg.samples) }))
    .sort(
      (a, b) => b.memBytes - a.memBytes || (holderKey(a.holder) < holderKey(b.holder) ? -1 : 1),
    );
}
