import { describe, expect, it } from "vitest";
import { accumulate, meanOf, minuteStartOf } from "./minute-acc.ts";
import type { GpuReading } from "./snapshot.ts";

const reading = (util: number | null, mem: number): GpuReading => ({
  uuid: "GPU-1",
  index: 0,
  name: "Tesla T4",
  migMode: false,
  util,
  memUtil: null,
  memUsedBytes: mem,
  memTotalBytes: 16e9,
  powerWatts: 30,
  tempCelsius: 40,
  smClockHz: 1.5e9,
  processes: 1,
});

describe("minute accumulator", () => {
  it("averages within a minute and keeps the memory peak", () => {
    const t0 = Date.UTC(2026, 10, 1, 10, 0, 5);
    let agg = accumulate(undefined, t0, reading(0.2, 100), 1);
    agg = accumulate(agg, t0 + 15_000, reading(0.6, 300), 2);
    agg = accumulate(agg, t0 + 30_000, reading(null, 200), 0);
    expect(agg.minuteStart).toBe(minuteStartOf(t0));
    expect(agg.samples).toBe(3);
    expect(meanOf(agg.util)).toBeCloseTo(0.4, 10);
    expect(agg.memUsedBytes).toBe(300);
    expect(agg.processes).toBe(2);
  });

  it("starts a fresh aggregate when the minute changes", () => {
    const t0 = Date.UTC(2026, 10, 1, 10, 0, 50);
    const a = accumulate(undefined, t0, reading(1, 100), 1);
    const b = accumulate(a, t0 + 15_000, reading(0, 50), 0);
    expect(b.minuteStart).toBe(Date.UTC(2026, 10, 1, 10, 1, 0));
    expect(b.samples).toBe(1);
    expect(meanOf(b.util)).toBe(0);
    expect(b.memUsedBytes).toBe(50);
  });
});
