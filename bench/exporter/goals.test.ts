import { describe, expect, it } from "vitest";
import { goalTable, latencyGoal, rssGoal, soakGoal, throughputGoal } from "./goals.ts";

describe("exporter benchmark goals", () => {
  it("judges requests/s against twice node_exporter's, or says why it was not run", () => {
    const node = { reqPerSec: 2000, p99Ms: 3 };
    expect(throughputGoal("gzip", { reqPerSec: 4000, p99Ms: 1 }, node, "").verdict).toBe("met");
    expect(throughputGoal("gzip", { reqPerSec: 3000, p99Ms: 1 }, node, "").verdict).toBe(
      "not met: 1.50× is under 2×",
    );
    const absent = throughputGoal("gzip", { reqPerSec: 3000, p99Ms: 1 }, undefined, "not here");
    expect(absent).toMatchObject({ figure: "3000.0 req/s", verdict: "not run: not here" });
  });

  it("judges p99 and resident memory, giving the figure that missed", () => {
    expect(latencyGoal("plain", { reqPerSec: 1, p99Ms: 4.99 }, "ctx").verdict).toBe("met");
    expect(latencyGoal("plain", { reqPerSec: 1, p99Ms: 7 }, "load 3").verdict).toBe(
      "not met: 7.00 ms; load 3",
    );
    expect(rssGoal(59.9, 70).verdict).toBe("met");
    expect(rssGoal(64, 70).verdict).toBe("not met: 4.0 MiB over");
    expect(rssGoal(64, 70, "why").verdict).toBe("not met: 4.0 MiB over; why");
  });

  it("judges the soak only when it ran its 10 minutes", () => {
    expect(soakGoal(undefined).verdict).toBe(
      "not run in this invocation: run npm run bench:exporter -- --soak",
    );
    const flat = { seconds: 600, startMiB: 50, warmMiB: 55, endMiB: 57, maxMiB: 58 };
    expect(soakGoal(flat)).toMatchObject({
      figure: "50.0 / 57.0 / 58.0 MiB (55.0 after 1 min)",
      verdict: "met",
    });
    expect(soakGoal({ ...flat, endMiB: 70 }).verdict).toMatch(/^not met: grew 15.0 MiB/);
    expect(soakGoal({ ...flat, seconds: 60 }).verdict).toBe("not met: ran 60 s, not 600 s");
    expect(goalTable([soakGoal(undefined)])).toHaveLength(3);
  });
});
