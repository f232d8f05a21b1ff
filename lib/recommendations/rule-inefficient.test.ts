import { describe, expect, it } from "vitest";
import type { GpuWindowStats } from "../metrics/source.ts";
import { busyInefficient, isInefficientHour } from "./rule-inefficient.ts";
import type { HourWindow } from "./types.ts";
import type { HourRow } from "./types.ts";
import { HOURS_PER_MONTH } from "../zod/schemas/recommendation.ts";

const H0 = Date.UTC(2026, 10, 30, 20, 0, 0);
const hour = (i: number) => new Date(H0 + i * 3_600_000);

function stat(gpuUuid: string, extra: Partial<GpuWindowStats> = {}): GpuWindowStats {
  return {
    hostId: "h1",
    gpuUuid,
    utilCoverage: 1,
    utilMax: 1,
    utilAvg: 0.97,
    memMaxBytes: 0,
    memTotalBytes: 0,
    processesMax: 1,
    tempAvg: 60,
    tempCoverage: 1,
    thermalRatio: 0,
    powerRatio: 0,
    throttleCoverage: 1,
    eccUncorrectedIncrease: 0,
    lastAt: null,
    smActiveMax: 0.05,
    smActiveAvg: 0.03,
    smActiveCoverage: 1,
    ...extra,
  };
}

const row = (gpuKey: string, i: number, costMicros: bigint): HourRow => ({
  hourStart: hour(i),
  gpuKey,
  parentKey: null,
  upSeconds: 3600,
  utilMean: 0.97,
  utilP95: 1,
  memPeakBytes: null,
  memTotalBytes: null,
  idleSeconds: 0,
  idleHeldSeconds: 0,
  costMicros,
});

describe("busy but inefficient", () => {
  it("judges one GPU-hour: util over 80 % with SM active under 20 % throughout", () => {
    expect(isInefficientHour(stat("g"))).toBe(true);
    expect(isInefficientHour(stat("g", { utilAvg: 0.8 }))).toBe(false);
    expect(isInefficientHour(stat("g", { smActiveMax: 0.2 }))).toBe(false);
    expect(
      isInefficientHour(stat("g", { smActiveMax: undefined, smActiveCoverage: undefined })),
    ).toBe(false);
    expect(isInefficientHour(stat("g", { smActiveCoverage: 0.4 }))).toBe(false);
    expect(isInefficientHour(stat("g", { utilCoverage: 0.4 }))).toBe(false);
  });

  const windows: HourWindow[] = [0, 1, 2].map((i) => ({
    hourStart: hour(i),
    stats: [
      stat("g-stuck"),
      stat("g-busy", { smActiveMax: 0.9, smActiveAvg: 0.8 }),
      stat("g-plain", { smActiveMax: null, smActiveAvg: null, smActiveCoverage: 0 }),
      // stuck only in the last hour
      i === 2 ? stat("g-late") : stat("g-late", { smActiveMax: 0.7 }),
    ],
  }));
  // the ledger has closed hours 0 and 1; hour 2 is not in it yet
  const rows = [0, 1].flatMap((i) => [
    row("g-stuck", i, 4_096_575n),
    row("g-busy", i, 4_096_575n),
    row("g-late", i, 4_096_575n),
  ]);
  const found = busyInefficient(windows, rows);

  it("finds the stuck GPUs only, with the hours and their ledger cost", () => {
    expect(found.map((f) => [f.gpuUuid, f.hours.length, f.costMicros, f.pricedHours])).toEqual([
      ["g-stuck", 3, 8_193_150n, 2],
      ["g-late", 1, 0n, 0],
    ]);
  });

  it("attaches the evidence window and a monthly figure from the priced hours", () => {
    const stuck = found[0];
    expect(stuck?.evidence).toEqual({
      from: hour(0).toISOString(),
      to: hour(3).toISOString(),
      metrics: {
        hours: 3,
        utilAvg: expect.closeTo(0.97, 9),
        smActiveAvg: expect.closeTo(0.03, 9),
        utilThreshold: 0.8,
        smActiveThreshold: 0.2,
      },
    });
    // 4,096,575 µ$ an hour × the hours of a month
    expect(stuck?.monthlyMicros).toBe(4_096_575n * BigInt(HOURS_PER_MONTH));
    expect(found[1]?.monthlyMicros).toBe(0n);
  });
});
