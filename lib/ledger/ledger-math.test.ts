import { describe, expect, it } from "vitest";
import { catalogueRows } from "../pricing/catalogue.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { at, gpu, gpuRows, host, hostRow, HOUR, priceOf, series } from "./ledger-fixtures.ts";
import { computeHostHour, ledgerWindow, toUsageHourData } from "./ledger-math.ts";
import type { HostSample } from "./ledger-types.ts";

describe("computeHostHour: cost", () => {
  it("charges 0.526 $/h for 1,800 s up as 263,000 micros", () => {
    const h = host();
    const samples = series(0, 1800, 60, () => [gpu("GPU-a", { util: 0.5 })]);
    samples.push({ t: at(1800), up: false, gpus: [] });
    const rows = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples,
      intervalSeconds: 60,
    });
    expect(hostRow(rows)).toMatchObject({
      upSeconds: 1800,
      samples: 30,
      priced: true,
      costMicros: 263_000n,
      idleCostMicros: 0n,
      utilMean: 0.5,
      utilP95: 0.5,
      gpuModel: "T4",
    });
    expect(gpuRows(rows)).toHaveLength(1);
    expect(gpuRows(rows)[0]).toMatchObject({
      gpuKey: "GPU-a",
      costMicros: 263_000n,
      upSeconds: 1800,
    });
  });

  it("applies the price in effect at each hour's start across a mid-month change", () => {
    const h = host({ instanceType: "g5.xlarge" });
    const change = new Date("2026-11-15T10:30:00Z");
    const g5 = catalogueRows().filter((r) => r.instanceType === "g5.xlarge");
    const prices = [
      ...g5,
      ...g5.map((r) => ({ ...r, usdPerHourMicros: 900_000n, effectiveFrom: change })),
    ];
    const full = (hourStart: Date) =>
      computeHostHour({
        hourStart,
        host: h,
        price: lookupPrice(prices, { ...h, at: hourStart }),
        samples: series(0, 7200, 60, () => [gpu("GPU-a")]),
        intervalSeconds: 60,
      });
    // 10:00 started before the change: the whole hour is at 1.006 although the price moved at 10:30.
    expect(hostRow(full(HOUR))?.costMicros).toBe(1_006_000n);
    expect(hostRow(full(at(3600)))?.costMicros).toBe(900_000n);
  });

  it("prices a spot host from its spot row", () => {
    const h = host({ instanceType: "g5.xlarge", pricingModel: "spot" });
    const rows = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples: series(0, 3600, 15, () => [gpu("GPU-a")]),
      intervalSeconds: 15,
    });
    expect(hostRow(rows)).toMatchObject({
      upSeconds: 3600,
      costMicros: 410_000n,
      pricingModel: "spot",
    });
  });

  it("rounds once, half-up: 32.7726 $/h for 7 s, split over 8 GPUs", () => {
    const h = host({ instanceType: "p4d.24xlarge" });
    const uuids = Array.from({ length: 8 }, (_, i) => `GPU-${i}`);
    const samples: HostSample[] = [
      { t: at(100), up: true, gpus: uuids.map((u) => gpu(u)) },
      { t: at(107), up: false, gpus: [] },
    ];
    const rows = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples,
      intervalSeconds: 15,
    });
    // 32,772,600 × 7 / 3600 = 63,724.5 -> 63,725; ÷ 8 = 7,965.625 -> five GPUs get 7,966, three 7,965
    expect(hostRow(rows)).toMatchObject({ upSeconds: 7, costMicros: 63_725n });
    expect(gpuRows(rows).map((r) => r.costMicros)).toEqual([
      7_966n,
      7_966n,
      7_966n,
      7_966n,
      7_966n,
      7_965n,
      7_965n,
      7_965n,
    ]);
  });

  it("marks an unpriced host, with cost 0 and the flag, never a silent $0", () => {
    const h = host({ provider: "onprem", instanceType: "dgx-a100", region: "dc1" });
    const price = priceOf(h);
    expect(price).toMatchObject({ priced: false, missing: "instance_type" });
    const rows = computeHostHour({
      hourStart: HOUR,
      host: h,
      price,
      samples: series(0, 3600, 60, () => [gpu("GPU-a", { util: 0, processes: 0 })]),
      intervalSeconds: 60,
      idle: { minIdleSeconds: 0 },
    });
    expect(rows.every((r) => !r.priced && r.costMicros === 0n && r.idleCostMicros === 0n)).toBe(
      true,
    );
    expect(hostRow(rows)).toMatchObject({
      upSeconds: 3600,
      idleSeconds: 3600,
      gpuModel: "NVIDIA A100-SXM4-40GB",
    });
  });

  it("writes no rows for an hour without a successful scrape", () => {
    const h = host();
    const down = series(0, 3600, 60, () => []).map((s) => ({ ...s, up: false }));
    const lookbackOnly = series(-1800, 0, 60, () => [gpu("GPU-a")]);
    for (const samples of [[], down, lookbackOnly]) {
      expect(
        computeHostHour({
          hourStart: HOUR,
          host: h,
          price: priceOf(h),
          samples,
          intervalSeconds: 60,
        }),
      ).toEqual([]);
    }
  });

  it("counts each sample for at most one interval, and never past the hour", () => {
    const h = host();
    // 0..600 every 60 s, then a 20-minute gap, then 1800..3600; the sample at 540 covers 60 s only.
    const samples = [
      ...series(0, 600, 60, () => [gpu("GPU-a")]),
      ...series(1800, 3600, 60, () => [gpu("GPU-a")]),
    ];
    const rows = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples,
      intervalSeconds: 60,
    });
    expect(hostRow(rows)).toMatchObject({ upSeconds: 2400, costMicros: 350_667n }); // 526,000 × 2/3
    // A lookback sample spills into the hour; the last sample stops at the hour's end.
    const edges = [
      { t: at(-20), up: true, gpus: [gpu("GPU-a")] },
      { t: at(3590), up: true, gpus: [gpu("GPU-a")] },
    ];
    const r2 = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples: edges,
      intervalSeconds: 60,
    });
    expect(hostRow(r2)).toMatchObject({ upSeconds: 50, samples: 1 });
  });

  it("keeps a host row when the host reports no GPU", () => {
    const h = host();
    const rows = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples: series(0, 3600, 60, () => []),
      intervalSeconds: 60,
    });
    expect(rows).toHaveLength(1);
    expect(hostRow(rows)).toMatchObject({
      costMicros: 526_000n,
      memTotalBytes: null,
      utilMean: null,
    });
  });

  it("rejects an hourStart off the hour", () => {
    const h = host();
    expect(() =>
      computeHostHour({
        hourStart: at(1),
        host: h,
        price: priceOf(h),
        samples: [],
        intervalSeconds: 60,
      }),
    ).toThrow(RangeError);
  });

  it("maps to UsageHour columns", () => {
    const h = host();
    const [row] = computeHostHour({
      hourStart: HOUR,
      host: h,
      price: priceOf(h),
      samples: series(0, 3600, 60, () => [gpu("GPU-a")]),
      intervalSeconds: 60,
    });
    expect(row && toUsageHourData(row, "host-1", "embedded")).toMatchObject({
      hostId: "host-1",
      gpuKey: "host",
      source: "embedded",
      costMicros: 526_000n,
      currency: "USD",
    });
    expect(row && Object.keys(toUsageHourData(row, "h", "demo"))).not.toContain("kind");
  });
});

describe("ledgerWindow", () => {
  it("reaches back the idle duration plus one interval", () => {
    expect(ledgerWindow(HOUR, 15)).toEqual({ from: at(-1815), to: at(3600) });
    expect(ledgerWindow(HOUR, 60, { minIdleSeconds: 300 }).from).toEqual(at(-360));
  });
});
