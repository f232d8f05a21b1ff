import { describe, expect, it } from "vitest";
import { bucketMs, downsample } from "./downsample.ts";

describe("bucketMs", () => {
  it("keeps one-minute steps for short ranges", () => {
    const to = new Date(Date.UTC(2026, 0, 1, 1));
    expect(bucketMs(new Date(to.getTime() - 3600_000), to, 1000)).toBe(60_000);
  });
  it("never yields more than maxPoints buckets for 7 days", () => {
    const to = new Date(Date.UTC(2026, 0, 8));
    const from = new Date(Date.UTC(2026, 0, 1));
    const step = bucketMs(from, to, 1000);
    expect(step % 60_000).toBe(0);
    expect((to.getTime() - from.getTime()) / step).toBeLessThanOrEqual(1000);
  });
});

describe("downsample", () => {
  it("averages by weight and leaves buckets without values as null", () => {
    const out = downsample(
      [
        { t: 0, v: 1, weight: 3 },
        { t: 60_000, v: 0, weight: 1 },
        { t: 120_000, v: null },
      ],
      120_000,
    );
    expect(out).toEqual([
      { t: 0, v: 0.75 },
      { t: 120_000, v: null },
    ]);
  });
});
