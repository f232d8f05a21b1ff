import { describe, expect, it } from "vitest";
import { at, GIB, gpu, gpuRows, host, hostRow, HOUR, priceOf, series } from "./ledger-fixtures.ts";
import { computeHostHour } from "./ledger-math.ts";
import type { GpuSample, HostSample, LedgerInput, LedgerRow } from "./ledger-types.ts";
import { sumMicros } from "../core/money.ts";

const byKey = (rows: LedgerRow[], key: string) => rows.find((r) => r.gpuKey === key);
const idleGpu = (uuid: string, over: Partial<GpuSample> = {}) =>
  gpu(uuid, { util: 0, processes: 0, memUsedBytes: 0, ...over });

function run(samples: HostSample[], over: Partial<LedgerInput> = {}): LedgerRow[] {
  const h = over.host ?? host();
  return computeHostHour({
    hourStart: HOUR,
    host: h,
    price: priceOf(h),
    samples,
    intervalSeconds: 60,
    ...over,
  });
}

describe("idle GPUs on an 8-GPU host", () => {
  const h = host({ instanceType: "p4d.24xlarge" });
  const rows = run(
    series(-1860, 3600, 60, (s) => [
      ...[0, 1, 2, 3, 4].map((i) => gpu(`GPU-${i}`)),
      // held: a process keeps 30 GiB allocated while SMs sit at 1 %
      gpu("GPU-5", { util: 0.01, memUsedBytes: 30 * GIB }),
      gpu("GPU-6", { util: 0.01, memUsedBytes: 30 * GIB }),
      // empty from 10:10; idle (30 min later) from 10:40
      s < 600 ? gpu("GPU-7", { util: 0.9 }) : idleGpu("GPU-7"),
    ]),
    { host: h },
  );

  it("splits the host cost and prices idle time exactly", () => {
    // 32.7726 $/h × 3600 s = 32,772,600; ÷ 8 = 4,096,575 each
    expect(hostRow(rows)).toMatchObject({ upSeconds: 3600, samples: 60, costMicros: 32_772_600n });
    expect(gpuRows(rows).map((r) => r.costMicros)).toEqual(Array(8).fill(4_096_575n));
    expect(byKey(rows, "GPU-5")).toMatchObject({
      idleSeconds: 3600,
      idleHeldSeconds: 3600,
      idleEmptySeconds: 0,
      idleCostMicros: 4_096_575n,
    });
    // 4,096,575 × 1200 / 3600 = 1,365,525
    expect(byKey(rows, "GPU-7")).toMatchObject({
      idleSeconds: 1200,
      idleHeldSeconds: 0,
      idleEmptySeconds: 1200,
      idleCostMicros: 1_365_525n,
    });
    expect(byKey(rows, "GPU-0")).toMatchObject({ idleSeconds: 0, idleCostMicros: 0n });
    // host idle cost = 2 × 4,096,575 + 1,365,525; the host itself was never wholly idle
    expect(hostRow(rows)).toMatchObject({ idleCostMicros: 9_558_675n, idleSeconds: 0 });
    expect(sumMicros(gpuRows(rows).map((r) => r.costMicros))).toBe(32_772_600n);
  });

  it("reports utilization and memory", () => {
    const g7 = byKey(rows, "GPU-7");
    expect(g7?.utilMean).toBeCloseTo(0.15, 10); // 10 samples at 0.9, 50 at 0
    expect(g7?.utilP95).toBe(0.9);
    expect(hostRow(rows)).toMatchObject({
      memPeakBytes: BigInt(180 * GIB), // 5 × 20 + 2 × 30 + 20 GiB before GPU-7 emptied
      memTotalBytes: BigInt(320 * GIB),
    });
  });
});

describe("idle rule edges", () => {
  const idleOf = (samples: HostSample[], over: Partial<LedgerInput> = {}) =>
    byKey(run(samples, over), "GPU-a")?.idleSeconds;

  it("needs the lookback: a GPU idle all along is idle from the hour's first second", () => {
    expect(idleOf(series(-1860, 3600, 60, () => [idleGpu("GPU-a")]))).toBe(3600);
    expect(idleOf(series(-1800, 3600, 60, () => [idleGpu("GPU-a")]))).toBe(3600);
    // without lookback the stretch is only known from 10:00, so idle starts at 10:30
    expect(idleOf(series(0, 3600, 60, () => [idleGpu("GPU-a")]))).toBe(1800);
  });

  it("treats util equal to the threshold as busy", () => {
    expect(idleOf(series(-1860, 3600, 60, () => [idleGpu("GPU-a", { util: 0.05 })]))).toBe(0);
    expect(idleOf(series(-1860, 3600, 60, () => [idleGpu("GPU-a", { util: 0.0499 })]))).toBe(3600);
  });

  it("restarts the stretch after a busy sample, a failed scrape or a long gap", () => {
    const blip = series(-1860, 3600, 60, (s) => [idleGpu("GPU-a", { util: s === 1200 ? 0.9 : 0 })]);
    // idle [0, 1200), busy sample, new stretch from 1260 -> idle again from 3060: 1200 + 540
    expect(idleOf(blip)).toBe(1740);
    const failed = blip.map((x) =>
      x.t.getTime() === at(1200).getTime() ? { ...x, up: false, gpus: [] } : x,
    );
    expect(idleOf(failed)).toBe(1740);
    // a 3-minute gap (> 2 intervals) at 1200..1380 breaks it too; no sample covers the gap
    const gap = series(-1860, 3600, 60, () => [idleGpu("GPU-a")]).filter(
      (x) => x.t < at(1200) || x.t > at(1320),
    );
    expect(idleOf(gap)).toBe(1200 + (3600 - 1380 - 1800));
  });

  it("follows a configured duration and threshold", () => {
    const samples = series(0, 3600, 60, () => [idleGpu("GPU-a", { util: 0.08 })]);
    expect(idleOf(samples, { idle: { utilThreshold: 0.1, minIdleSeconds: 300 } })).toBe(3300);
    expect(idleOf(samples, { idle: { minIdleSeconds: 0 } })).toBe(0);
  });

  it("calls a GPU held when a process or >1 % memory remains, else empty", () => {
    const held = run(
      series(-1860, 3600, 60, () => [idleGpu("GPU-a", { memUsedBytes: 0.02 * 40 * GIB })]),
    );
    expect(byKey(held, "GPU-a")).toMatchObject({ idleHeldSeconds: 3600, idleEmptySeconds: 0 });
    expect(hostRow(held)).toMatchObject({ idleSeconds: 3600, idleHeldSeconds: 3600 });
    const empty = run(
      series(-1860, 3600, 60, () => [idleGpu("GPU-a", { memUsedBytes: 0.005 * 40 * GIB })]),
    );
    expect(byKey(empty, "GPU-a")).toMatchObject({ idleHeldSeconds: 0, idleEmptySeconds: 3600 });
    // the whole host is idle, so the host row carries the GPU's idle cost: 526,000
    expect(hostRow(empty)).toMatchObject({
      idleSeconds: 3600,
      idleEmptySeconds: 3600,
      idleCostMicros: 526_000n,
    });
  });
});

describe("MIG", () => {
  const h = host({ provider: "gcp", instanceType: "a2-highgpu-1g", region: "us-central1" });
  const slice = (uuid: string, fraction: number | undefined, over: Partial<GpuSample>) =>
    gpu(uuid, { util: null, migParentUuid: "GPU-p", migFraction: fraction, ...over });
  const parent = gpu("GPU-p", { util: null, processes: 2, memUsedBytes: 15 * GIB });

  it("splits the parent's share by fraction; the parent keeps the unallocated 1/7", () => {
    const rows = run(
      series(-1860, 3600, 60, () => [
        parent,
        slice("MIG-3g", 3 / 7, { processes: 2, memUsedBytes: 10 * GIB, memTotalBytes: 20 * GIB }),
        // no process but 5 GiB still allocated: idle, held
        slice("MIG-2g", 2 / 7, { processes: 0, memUsedBytes: 5 * GIB, memTotalBytes: 10 * GIB }),
        slice("MIG-1g", 1 / 7, { processes: 0, memUsedBytes: 0, memTotalBytes: 5 * GIB }),
      ]),
      { host: h },
    );
    // 3,673,000 by weights 142,858 : 428,571 : 285,714 : 142,857 (of 1,000,000)
    // floors 524,717 / 1,574,141 / 1,049,427 / 524,713; the 2 left go to .761 (1g) and .522 (2g)
    expect(gpuRows(rows).map((r) => [r.gpuKey, r.kind, r.costMicros, r.idleCostMicros])).toEqual([
      ["GPU-p", "mig_parent", 524_717n, 524_717n],
      ["MIG-1g", "mig_slice", 524_714n, 524_714n],
      ["MIG-2g", "mig_slice", 1_049_428n, 1_049_428n],
      ["MIG-3g", "mig_slice", 1_574_141n, 0n],
    ]);
    expect(byKey(rows, "MIG-2g")).toMatchObject({
      idleHeldSeconds: 3600,
      utilMean: null,
      utilP95: null,
    });
    expect(byKey(rows, "MIG-1g")).toMatchObject({ idleEmptySeconds: 3600, parentUuid: "GPU-p" });
    expect(byKey(rows, "GPU-p")).toMatchObject({ idleSeconds: 3600, idleEmptySeconds: 3600 });
    expect(hostRow(rows)).toMatchObject({
      costMicros: 3_673_000n,
      idleCostMicros: 2_098_859n,
      idleSeconds: 0,
      memPeakBytes: BigInt(15 * GIB),
      memTotalBytes: BigInt(40 * GIB),
      utilMean: null,
    });
    expect(sumMicros(gpuRows(rows).map((r) => r.costMicros))).toBe(3_673_000n);
  });

  it("gives the parent nothing when slices fill the GPU", () => {
    const sevenths = ["a", "b", "c", "d", "e", "f", "g"].map((x) =>
      slice(`MIG-${x}`, 1 / 7, { processes: 1, memTotalBytes: 5 * GIB }),
    );
    const rows = run(
      series(0, 3600, 60, () => [parent, ...sevenths]),
      { host: h },
    );
    expect(byKey(rows, "GPU-p")).toMatchObject({
      costMicros: 0n,
      idleSeconds: 0,
      idleCostMicros: 0n,
    });
    // 3,673,000 / 7 = 524,714.29: the first two slices by uuid take the 2 leftover micros
    expect(
      gpuRows(rows)
        .slice(1)
        .map((r) => r.costMicros),
    ).toEqual([524_715n, 524_715n, 524_714n, 524_714n, 524_714n, 524_714n, 524_714n]);
  });

  it("falls back to the memory share without a fraction, and survives a missing parent", () => {
    const half = slice("MIG-x", undefined, { memTotalBytes: 20 * GIB });
    const rows = run(
      series(0, 3600, 60, () => [parent, half]),
      { host: h },
    );
    expect(byKey(rows, "MIG-x")?.costMicros).toBe(1_836_500n);
    const orphan = run(
      series(0, 3600, 60, () => [half]),
      { host: h },
    );
    expect(byKey(orphan, "GPU-p")).toMatchObject({ kind: "mig_parent", upSeconds: 0 });
    expect(sumMicros(gpuRows(orphan).map((r) => r.costMicros))).toBe(3_673_000n);
  });
});
