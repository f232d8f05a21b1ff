import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost, writeHours } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import type { GpuWindowStats } from "../metrics/source.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { loadHourWindows, recomputeRecommendations } from "./recompute.ts";
import { RECO_DEFAULTS } from "./types.ts";

// recompute with a metrics source: busy_inefficient recommendations from hourly windows, kept
// when a run without a metrics source cannot judge them.

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:30:00Z");
const END = Date.UTC(2026, 10, 20, 12);
let db: Db;
let hostId = "";

/** A fake source: GPU-ineff reads 95 % busy with SM active 10 % in the last 10 hours. */
const calls: [number, number][] = [];
const metrics = {
  gpuWindow: (from: Date, to: Date): Promise<GpuWindowStats[]> => {
    calls.push([from.getTime(), to.getTime()]);
    const bad = from.getTime() >= END - 10 * HOUR;
    return Promise.resolve([
      {
        hostId,
        gpuUuid: "GPU-ineff",
        utilCoverage: 1,
        utilMax: 1,
        utilAvg: 0.95,
        memMaxBytes: null,
        memTotalBytes: null,
        processesMax: 1,
        tempAvg: null,
        tempCoverage: 0,
        thermalRatio: null,
        powerRatio: null,
        throttleCoverage: 0,
        eccUncorrectedIncrease: null,
        lastAt: null,
        smActiveMax: bad ? 0.1 : 0.7,
        smActiveAvg: bad ? 0.1 : 0.7,
        smActiveCoverage: 1,
      },
    ]);
  },
};

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  const h = await makeHost(db, "ineff-host", { instanceType: "g4dn.xlarge", owner: "bo" });
  hostId = h.id;
  await makeGpu(db, h.id, "GPU-ineff", 0, { name: "Tesla T4", memGiB: 16 });
  await writeHours(db, h, new Date(END - 7 * 24 * HOUR), new Date(END), () => [
    { utilMean: 0.95, utilP95: 0.99, memPeakGiB: 12, memTotalGiB: 16, costMicros: 526_000n },
    {
      gpuKey: "GPU-ineff",
      utilMean: 0.95,
      utilP95: 0.99,
      memPeakGiB: 12,
      memTotalGiB: 16,
      costMicros: 526_000n,
    },
  ]);
});
afterAll(async () => db.$disconnect());

describe("busy_inefficient in recompute", () => {
  it("reads one window per closed hour of the window", async () => {
    calls.length = 0;
    const w = await loadHourWindows(metrics, NOW, RECO_DEFAULTS);
    expect(w).toHaveLength(7 * 24);
    expect(calls[0]).toEqual([END - 7 * 24 * HOUR, END - 7 * 24 * HOUR + HOUR]);
    expect(calls.at(-1)).toEqual([END - HOUR, END]);
  });

  it("creates the recommendation from the windows and keeps it through a run without metrics", async () => {
    await recomputeRecommendations(db, NOW, RECO_DEFAULTS, metrics);
    const rec = await db.recommendation.findUnique({
      where: { fingerprint: "busy_inefficient:GPU-ineff" },
    });
    expect(rec?.kind).toBe("busy_inefficient");
    expect(rec?.gpuUuid).toBe("GPU-ineff");
    // 10 h × $0.526 = $5.26 over 168 h judged, × 730 h = $22.855952 (rounded to the micro)
    expect(rec?.monthlySavingMicros).toBe(22_855_952n);
    expect(JSON.parse(rec?.evidence ?? "{}").metrics).toMatchObject({
      hours: 10,
      hoursJudged: 168,
    });

    await recomputeRecommendations(db, NOW);
    expect(
      await db.recommendation.count({ where: { fingerprint: "busy_inefficient:GPU-ineff" } }),
    ).toBe(1);
  });
});
