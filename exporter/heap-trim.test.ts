import { describe, expect, it } from "vitest";
import { createHeapTrim, exposedGc } from "./heap-trim.ts";

describe("heap trim after a tick", () => {
  it("collects after a tick, at most once per interval", () => {
    let t = 0;
    let calls = 0;
    const trim = createHeapTrim(
      () => calls++,
      2000,
      () => t,
    );
    expect(trim.active).toBe(true);
    trim.afterTick(); // first tick collects
    t = 1000;
    trim.afterTick(); // 1 s later: too soon
    t = 1999;
    trim.afterTick();
    expect(calls).toBe(1);
    t = 2000;
    trim.afterTick();
    t = 17000; // a 15 s interval collects every tick
    trim.afterTick();
    expect(calls).toBe(3);
  });

  it("does nothing without --expose-gc", () => {
    const trim = createHeapTrim(undefined);
    expect(trim.active).toBe(false);
    expect(() => trim.afterTick()).not.toThrow();
  });

  it("finds gc only where node exposes it", () => {
    const g = globalThis as { gc?: unknown };
    const had = g.gc;
    try {
      g.gc = undefined;
      expect(exposedGc()).toBeUndefined();
      let called = 0;
      g.gc = () => called++;
      exposedGc()?.();
      expect(called).toBe(1);
    } finally {
      g.gc = had;
    }
  });
});
