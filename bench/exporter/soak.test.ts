import { describe, expect, it } from "vitest";
import { slope, summarise } from "./soak.ts";

const MiB = 1024 * 1024;

describe("soak summary", () => {
  it("fits a least-squares slope", () => {
    expect(slope([1, 2, 3, 4].map((t) => ({ t, v: 2 * t + 1 })))).toBeCloseTo(2);
    expect(slope([{ t: 1, v: 5 }])).toBe(0);
  });

  it("reports RSS start/end/max, slope per hour and CPU share", () => {
    // RSS grows 1 MiB a minute; 30 CPU seconds over 10 minutes
    const points = Array.from({ length: 11 }, (_, i) => ({
      t: i * 60_000,
      rss: (100 + i) * MiB,
      cpuSeconds: i * 3,
    }));
    const s = summarise("x", points, 10, 1);
    expect(s.rssStartMiB).toBe(100);
    expect(s.rssEndMiB).toBe(110);
    expect(s.rssMaxMiB).toBe(110);
    expect(s.rssWarmMiB).toBe(101); // the first sample a minute in
    expect(s.slopeMiBPerHour).toBeCloseTo(60);
    expect(s.cpuSeconds).toBe(30);
    expect(s.cpuPercent).toBeCloseTo(5);
    expect([s.scrapes, s.scrapeErrors]).toEqual([10, 1]);
  });
});
