import { describe, expect, it } from "vitest";
import { sumMicros } from "@/lib/core/money.ts";
import type { PriceLookup } from "@/lib/pricing/lookup.ts";
import { GIB, gpu } from "./ledger-fixtures.ts";
import { computeHostHour } from "./ledger-math.ts";
import type { GpuSample, HostSample, LedgerRow } from "./ledger-types.ts";
import { attribution, money, priced, UNPRICED } from "./reprice-fixtures.ts";
import { repriceHostHour, type StoredLedgerRow } from "./reprice-math.ts";

// One host-hour re-priced from its stored rows matches what the ledger writes (reprice-math.ts).

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const stored = (rows: readonly LedgerRow[]): StoredLedgerRow[] =>
  rows.map((r) => ({
    gpuKey: r.gpuKey,
    parentKey: r.parentUuid,
    upSeconds: r.upSeconds,
    idleSeconds: r.idleSeconds,
    memTotalBytes: r.memTotalBytes,
    priced: r.priced,
    costMicros: r.costMicros,
    idleCostMicros: r.idleCostMicros,
    currency: r.currency,
    actualSource: null,
    listCostMicros: null,
  }));

/**
 * A random host-hour: 0-4 GPUs, some in MIG mode with 1-3 slices (declared fractions or not,
 * a parent that does or does not report itself), scrapes failing now and then, GPUs going idle.
 */
function randomHour(
  next: () => number,
  hourStart: Date,
  opts: { declaredFractions: boolean },
): HostSample[] {
  const int = (n: number) => Math.floor(next() * n);
  const gpus: {
    uuid: string;
    slices: { uuid: string; k: number; mem: number }[];
    silent: boolean;
  }[] = Array.from({ length: int(5) }, (_, i) => {
    const mig = next() < 0.4;
    let left = 7;
    const slices = mig
      ? Array.from({ length: 1 + int(3) }, (_, j) => {
          const k = Math.max(1, Math.min(left, 1 + int(3)));
          left = Math.max(0, left - k);
          return { uuid: `MIG-${i}-${j}`, k, mem: k * 5 * GIB + int(3) * GIB };
        }).filter((s) => s.k > 0)
      : [];
    return { uuid: `GPU-${int(90) + 10}-${i}`, slices, silent: mig && next() < 0.3 };
  });
  const busyUntil = gpus.map(() => int(5400) - 1800);
  const upFrom = next() < 0.3 ? int(1800) : -1860;
  const upTo = next() < 0.3 ? 1800 + int(1800) : 3600;
  const out: HostSample[] = [];
  for (let s = -1860; s < 3600; s += 60) {
    const t = new Date(hourStart.getTime() + s * 1000);
    if (s < upFrom || s >= upTo || next() < 0.05) {
      out.push({ t, up: false, gpus: [] });
      continue;
    }
    const samples: GpuSample[] = [];
    gpus.forEach((g, i) => {
      const idle = s >= (busyUntil[i] ?? 0);
      if (!g.silent) {
        samples.push(
          gpu(g.uuid, idle ? { util: 0, processes: 0, memUsedBytes: 0 } : { util: 0.7 }),
        );
      }
      for (const sl of g.slices) {
        samples.push(
          gpu(sl.uuid, {
            util: null,
            processes: idle ? 0 : 1,
            memUsedBytes: idle ? 0 : GIB,
            memTotalBytes: sl.mem,
            migParentUuid: g.uuid,
            ...(opts.declaredFractions ? { migFraction: sl.k / 7 } : {}),
          }),
        );
      }
    });
    out.push({ t, up: true, gpus: samples });
  }
  return out;
}

describe("repriceHostHour", () => {
  const hourStart = new Date("2026-05-04T07:00:00Z");
  const compute = (samples: HostSample[], price: PriceLookup) =>
    computeHostHour({
      hourStart,
      host: attribution(),
      price,
      samples,
      intervalSeconds: 60,
    });

  it("changes nothing when an hour is re-priced with the price it was written with", () => {
    let cases = 0;
    let migCases = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = rng(seed);
      const samples = randomHour(next, hourStart, { declaredFractions: next() < 0.5 });
      const price = next() < 0.2 ? UNPRICED : priced(BigInt(Math.floor(next() * 120_000_000)));
      const rows = compute(samples, price);
      if (rows.length === 0) continue;
      cases++;
      if (rows.some((r) => r.kind === "mig_slice")) migCases++;
      const again = repriceHostHour(stored(rows), price);
      expect(money(again), `seed ${seed}`).toEqual(money(rows));
    }
    expect(cases).toBeGreaterThan(300);
    expect(migCases).toBeGreaterThan(50);
  });

  it("prices an unpriced hour exactly as the ledger would have", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = rng(seed);
      // without declared fractions the ledger weighs slices by memory, which the rows keep
      const samples = randomHour(next, hourStart, { declaredFractions: false });
      const rows = compute(samples, UNPRICED);
      if (rows.length === 0) continue;
      const price = priced(BigInt(1 + Math.floor(next() * 120_000_000)));
      expect(money(repriceHostHour(stored(rows), price)), `seed ${seed}`).toEqual(
        money(compute(samples, price)),
      );
    }
  });

  it("re-prices a priced hour with the ledger's split: exact sums, MIG within a micro or two", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = rng(seed);
      const samples = randomHour(next, hourStart, { declaredFractions: true });
      const before = priced(BigInt(1_000_000 + Math.floor(next() * 100_000_000)));
      const rows = compute(samples, before);
      if (rows.length === 0) continue;
      const after = priced(((before.priced ? before.usdPerHourMicros : 0n) * 3n) / 2n + 7n);
      const got = repriceHostHour(stored(rows), after);
      const want = compute(samples, after);
      const host = got.find((r) => r.gpuKey === "host");
      expect(host?.costMicros, `seed ${seed}`).toBe(want[0]?.costMicros);
      const gpuRows = got.filter((r) => r.gpuKey !== "host");
      if (gpuRows.length > 0) {
        expect(sumMicros(gpuRows.map((r) => r.costMicros))).toBe(host?.costMicros);
        expect(sumMicros(gpuRows.map((r) => r.idleCostMicros))).toBe(host?.idleCostMicros);
      }
      got.forEach((r, i) => {
        const w = want[i];
        expect(r.gpuKey).toBe(w?.gpuKey);
        const diff = r.costMicros - (w?.costMicros ?? 0n);
        // physical GPUs split evenly: exact; MIG rows are weighed by their old costs
        if (!w?.parentUuid && w?.kind !== "mig_parent") expect(diff, `seed ${seed}`).toBe(0n);
        else expect(diff >= -3n && diff <= 3n, `seed ${seed} ${r.gpuKey} ${diff}`).toBe(true);
      });
    }
  });

  it("splits a MIG parent by memory shares when the hour had no price", () => {
    const rows: StoredLedgerRow[] = [
      { ...base("host"), upSeconds: 3600 },
      { ...base("GPU-a"), memTotalBytes: 100n },
      { ...base("MIG-1"), parentKey: "GPU-a", memTotalBytes: 50n, idleSeconds: 1800 },
      { ...base("MIG-2"), parentKey: "GPU-a", memTotalBytes: 20n },
    ];
    // 7 $/h: slices weigh 50 % and 20 % of the parent's memory, the parent keeps the other 30 %
    const got = repriceHostHour(rows, priced(7_000_000n));
    const row = (gpuKey: string, costMicros: bigint, idleCostMicros: bigint) => ({
      gpuKey,
      costMicros,
      idleCostMicros,
      priced: true,
      currency: "USD",
      actualSource: null,
      listCostMicros: null,
    });
    expect(got).toEqual([
      row("host", 7_000_000n, 1_750_000n),
      row("GPU-a", 2_100_000n, 0n),
      row("MIG-1", 3_500_000n, 1_750_000n),
      row("MIG-2", 1_400_000n, 0n),
    ]);
    // a retired price makes it unknown again: cost 0 and the flag, never a silent $0
    expect(repriceHostHour(rows, UNPRICED).map((r) => [r.costMicros, r.priced])).toEqual(
      Array(4).fill([0n, false]),
    );
  });

  function base(gpuKey: string): StoredLedgerRow {
    return {
      gpuKey,
      parentKey: null,
      upSeconds: 3600,
      idleSeconds: 0,
      memTotalBytes: null,
      priced: false,
      costMicros: 0n,
      idleCostMicros: 0n,
      currency: "USD",
      actualSource: null,
      listCostMicros: null,
    };
  }
});
