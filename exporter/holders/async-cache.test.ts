import { describe, expect, it } from "vitest";
import { AsyncCache } from "./async-cache.ts";

function counting(fail = new Set<number>()) {
  const asked: number[] = [];
  const lookup = (k: number) => {
    asked.push(k);
    return fail.has(k) ? Promise.reject(new Error(`no ${k}`)) : Promise.resolve(`v${k}`);
  };
  return { asked, lookup };
}

describe("AsyncCache", () => {
  it("answers at once, looks a key up once, and serves the value once known", async () => {
    const { asked, lookup } = counting();
    const c = new AsyncCache({ lookup, max: 10, ttlMs: 1000, errorTtlMs: 100, concurrency: 2 });
    expect(c.get(1)).toBeUndefined();
    expect(c.get(1)).toBeUndefined();
    await c.settled();
    expect(c.get(1)).toBe("v1");
    expect(asked).toEqual([1]);
  });

  it("keeps at most `max` entries, dropping the least recently used", async () => {
    const { lookup } = counting();
    const c = new AsyncCache({ lookup, max: 2, ttlMs: 1000, errorTtlMs: 100, concurrency: 4 });
    c.get(1);
    c.get(2);
    await c.settled();
    c.get(1); // 1 is now more recent than 2
    c.get(3);
    await c.settled();
    expect(c.size).toBe(2);
    expect(c.get(1)).toBe("v1");
    expect(c.get(3)).toBe("v3");
    expect(c.get(2)).toBeUndefined();
  });

  it("looks up again after the TTL, serving the old value meanwhile", async () => {
    let now = 0;
    const { asked, lookup } = counting();
    const c = new AsyncCache({
      lookup,
      max: 10,
      ttlMs: 1000,
      errorTtlMs: 100,
      concurrency: 1,
      now: () => now,
    });
    c.get(7);
    await c.settled();
    now = 999;
    expect(c.get(7)).toBe("v7");
    expect(asked).toEqual([7]);
    now = 1000;
    expect(c.get(7)).toBe("v7");
    await c.settled();
    expect(asked).toEqual([7, 7]);
  });

  it("after a failure keeps what it knew and waits errorTtlMs before asking again", async () => {
    let now = 0;
    const fail = new Set<number>();
    const { asked, lookup } = counting(fail);
    const errors: unknown[] = [];
    const c = new AsyncCache({
      lookup,
      max: 10,
      ttlMs: 1000,
      errorTtlMs: 100,
      concurrency: 1,
      now: () => now,
      onError: (_k, e) => errors.push(e),
    });
    c.get(5);
    await c.settled();
    fail.add(5);
    now = 1000;
    c.get(5);
    await c.settled();
    expect(errors).toHaveLength(1);
    now = 1050;
    expect(c.get(5)).toBe("v5");
    await c.settled();
    expect(asked).toEqual([5, 5]);
    now = 1100;
    c.get(5);
    await c.settled();
    expect(asked).toEqual([5, 5, 5]);
  });

  it("runs at most `concurrency` lookups at once", async () => {
    let running = 0;
    let peak = 0;
    const c = new AsyncCache({
      lookup: async (k: number) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running -= 1;
        return k;
      },
      max: 100,
      ttlMs: 1000,
      errorTtlMs: 100,
      concurrency: 2,
    });
    for (let i = 0; i < 20; i++) c.get(i);
    await c.settled();
    expect(peak).toBe(2);
    expect(c.size).toBe(20);
  });
});
