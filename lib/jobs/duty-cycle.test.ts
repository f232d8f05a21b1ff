import { describe, expect, it } from "vitest";
import { dutyCycled } from "./duty-cycle.ts";

describe("dutyCycled", () => {
  it("runs a cheap job every time and skips after an expensive run", async () => {
    let now = 0;
    let runs = 0;
    let cost = 0;
    const job = dutyCycled(
      async () => {
        runs++;
        now += cost;
      },
      { maxShare: 0.25, clock: () => now },
    );
    await job();
    await job();
    expect(runs).toBe(2); // took no time: never skipped

    cost = 10_000;
    await job(); // started at 0, took 10 s: next run not before 40 s
    expect(runs).toBe(3);
    now = 25_000;
    await job();
    expect(runs).toBe(3);
    now = 40_000;
    cost = 0;
    await job();
    expect(runs).toBe(4);
  });

  it("counts a failed run and rethrows its error", async () => {
    let now = 0;
    const job = dutyCycled(
      async () => {
        now += 1000;
        throw new Error("prometheus timeout");
      },
      { maxShare: 0.5, clock: () => now },
    );
    await expect(job()).rejects.toThrow("prometheus timeout");
    now = 1500;
    await expect(job()).resolves.toBeUndefined(); // skipped until 2000
    now = 2000;
    await expect(job()).rejects.toThrow("prometheus timeout");
  });
});
