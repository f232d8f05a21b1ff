import { describe, expect, it } from "vitest";
import type { Holder } from "../core/holders.ts";
import { sumMicros } from "../core/money.ts";
import { GIB, gpu, gpuRows, host, HOUR, priceOf, series } from "./ledger-fixtures.ts";
import { holderShares } from "./holder-split.ts";
import { computeHostHour } from "./ledger-math.ts";
import type { HostSample } from "./ledger-types.ts";

const who = (user: string, ref = "python"): Holder => ({
  user,
  kind: "process",
  ref,
  name: ref,
  namespace: null,
  account: null,
});
const A = who("alice");
const B = who("bob");
const h = host({ instanceType: "p4d.24xlarge" });

function run(samples: HostSample[]) {
  const rows = computeHostHour({
    hourStart: HOUR,
    host: h,
    price: priceOf(h),
    samples,
    intervalSeconds: 60,
  });
  return { rows, shares: holderShares(rows, samples, HOUR, 60) };
}

describe("who held a GPU-hour", () => {
  it("gives a GPU held all hour by one user the whole row", () => {
    const { rows, shares } = run(
      series(0, 3600, 60, () => [gpu("GPU-0", { holders: [{ holder: A, memBytes: 20 * GIB }] })]),
    );
    const row = gpuRows(rows)[0];
    expect(shares).toHaveLength(1);
    expect(shares[0]).toMatchObject({
      gpuKey: "GPU-0",
      holderKey: "alice|process:python",
      sharePpm: 1_000_000,
    });
    expect(shares[0]?.costMicros).toBe(row?.costMicros);
    expect(shares[0]?.memByteSeconds).toBe(BigInt(20 * GIB * 3600));
  });

  it("splits a GPU that changed hands by memory-seconds, exactly, leaving unheld time to nobody", () => {
    // alice 0-20 min (10 GiB), alice 10 GiB + bob 30 GiB 20-40 min, nobody 40-60 min
    const { rows, shares } = run(
      series(0, 3600, 60, (s) => [
        gpu("GPU-0", {
          holders:
            s < 1200
              ? [{ holder: A, memBytes: 10 * GIB }]
              : s < 2400
                ? [
                    { holder: B, memBytes: 30 * GIB },
                    { holder: A, memBytes: 10 * GIB },
                  ]
                : [],
          processes: s < 2400 ? 1 : 0,
        }),
      ]),
    );
    const row = gpuRows(rows)[0];
    const by = new Map(shares.map((x) => [x.holder.user, x]));
    // alice: 20 min + a quarter of 20 min = 25 min; bob: 15 min; nobody: 20 min
    expect(by.get("alice")?.sharePpm).toBe(416_667);
    expect(by.get("bob")?.sharePpm).toBe(250_000);
    const cost = row?.costMicros ?? 0n;
    const held = sumMicros(shares.map((x) => x.costMicros));
    // the holders get 40 of the 60 minutes' cost, to the micro-dollar (largest remainder)
    expect(held).toBeLessThanOrEqual(cost);
    expect(Number(cost - held)).toBeCloseTo(Number(cost) / 3, -1);
    expect(Number(by.get("alice")?.costMicros)).toBeCloseTo((Number(cost) * 25) / 60, -1);
  });

  it("charges idle time to whoever held the GPU while it sat idle, not to the busy holder before", () => {
    // bob busy the first 10 minutes; alice holds it idle from 10 min on (idle counts after 30 min)
    const samples = series(-1860, 3600, 60, (s) => [
      gpu("GPU-0", {
        util: s < 600 ? 0.9 : 0,
        holders: [{ holder: s < 600 ? B : A, memBytes: 8 * GIB }],
      }),
    ]);
    const { rows, shares } = run(samples);
    const row = gpuRows(rows)[0];
    expect(row?.idleSeconds).toBe(1200);
    const by = new Map(shares.map((x) => [x.holder.user, x]));
    expect(by.get("alice")?.idleSeconds).toBe(1200);
    expect(by.get("alice")?.idleCostMicros).toBe(row?.idleCostMicros);
    expect(by.get("bob")?.idleSeconds).toBe(0);
    expect(by.get("bob")?.idleCostMicros).toBe(0n);
    expect(sumMicros(shares.map((x) => x.costMicros))).toBe(row?.costMicros);
  });

  it("writes no holder rows for a GPU nobody named (attribution off) or a host row", () => {
    const { shares } = run(series(0, 3600, 60, () => [gpu("GPU-0"), gpu("GPU-1")]));
    expect(shares).toEqual([]);
  });
});
