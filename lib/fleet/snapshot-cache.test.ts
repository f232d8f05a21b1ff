import { describe, expect, it } from "vitest";
import { createSnapshotCache } from "./snapshot-cache.ts";

// A fake clock and loads the test resolves by hand: no timers, no timing assertions.

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (v: T) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(extra: { sleep?: (ms: number) => Promise<void> } = {}) {
  let now = 1_000_000;
  const loads: Array<Deferred<string>> = [];
  const cache = createSnapshotCache<string>({
    ...extra,
    refreshAfterMs: 15_000,
    maxStaleMs: 30_000,
    clock: () => now,
    load: () => {
      const d = deferred<string>();
      loads.push(d);
      return d.promise;
    },
  });
  return {
    cache,
    loads,
    advance: (ms: number) => {
      now += ms;
    },
    settle: () => new Promise<void>((r) => setImmediate(r)),
  };
}

describe("snapshot cache", () => {
  it("builds once for concurrent first reads (single flight)", async () => {
    const { cache, loads } = setup();
    const reads = [cache.get(), cache.get(), cache.get()];
    expect(loads).toHaveLength(1);
    loads[0]?.resolve("v1");
    const entries = await Promise.all(reads);
    expect(entries.map((e) => e.value)).toEqual(["v1", "v1", "v1"]);
    expect(entries[0]?.error).toBeNull();
  });

  it("serves the cached value within the interval without loading", async () => {
    const { cache, loads, advance } = setup();
    const first = cache.get();
    loads[0]?.resolve("v1");
    await first;
    advance(14_000);
    expect((await cache.get()).value).toBe("v1");
    expect(loads).toHaveLength(1);
  });

  it("refreshes in the background once per interval, serving the old value meanwhile", async () => {
    const { cache, loads, advance, settle } = setup();
    const first = cache.get();
    loads[0]?.resolve("v1");
    await first;
    advance(15_000);
    // due: the read returns at once with v1 and one rebuild starts
    expect((await cache.get()).value).toBe("v1");
    expect((await cache.get()).value).toBe("v1");
    expect(loads).toHaveLength(2);
    loads[1]?.resolve("v2");
    await settle();
    expect((await cache.get()).value).toBe("v2");
    expect(loads).toHaveLength(2);
  });

  it("keeps the last good value when a rebuild fails, with the error, and retries next interval", async () => {
    const { cache, loads, advance, settle } = setup();
    const first = cache.get();
    loads[0]?.resolve("v1");
    await first;
    advance(15_000);
    await cache.get();
    loads[1]?.reject(new Error("prometheus down"));
    await settle();
    const served = await cache.get();
    expect(served).toMatchObject({ value: "v1", error: "prometheus down" });
    expect(loads).toHaveLength(2); // no retry storm within the interval
    advance(15_000);
    await cache.get();
    expect(loads).toHaveLength(3);
    loads[2]?.resolve("v3");
    await settle();
    expect(await cache.get()).toMatchObject({ value: "v3", error: null });
  });

  /** A cache holding "v1", read once it is older than maxStale: the read starts a rebuild. */
  async function staleRead(t: ReturnType<typeof setup>) {
    const first = t.cache.get();
    t.loads[0]?.resolve("v1");
    await first;
    t.advance(45_000);
    const read = t.cache.get();
    expect(t.loads).toHaveLength(2);
    return { read }; // wrapped: awaiting this helper must not await the read
  }

  it("waits for the rebuild when the value is older than maxStale", async () => {
    const t = setup();
    const { loads } = t;
    const { read } = await staleRead(t);
    loads[1]?.resolve("v2");
    expect((await read).value).toBe("v2");
  });

  it("serves the too-old value when the rebuild takes longer than maxWait", async () => {
    let wake: () => void = () => {};
    const t = setup({ sleep: () => new Promise<void>((r) => (wake = r)) });
    const { cache, loads, settle } = t;
    const { read } = await staleRead(t);
    wake(); // the rebuild is still running when the wait is over
    expect((await read).value).toBe("v1");
    loads[1]?.resolve("v2");
    await settle();
    expect((await cache.get()).value).toBe("v2");
  });

  it("serves a too-old value marked with the error when the rebuild just failed", async () => {
    const { cache, loads, advance } = setup();
    const first = cache.get();
    loads[0]?.resolve("v1");
    await first;
    advance(45_000);
    const read = cache.get();
    loads[1]?.reject(new Error("timeout"));
    expect(await read).toMatchObject({ value: "v1", error: "timeout" });
    // the failure was just now: the next read does not wait on another attempt
    expect(await cache.get()).toMatchObject({ value: "v1", error: "timeout" });
    expect(loads).toHaveLength(2);
  });

  it("fails the first read when the first build fails, and retries on the next", async () => {
    const { cache, loads } = setup();
    const first = cache.get();
    loads[0]?.reject(new Error("db locked"));
    await expect(first).rejects.toThrow("db locked");
    const second = cache.get();
    expect(loads).toHaveLength(2);
    loads[1]?.resolve("v1");
    expect((await second).value).toBe("v1");
  });

  it("refresh() joins a running build and records reads", async () => {
    const { cache, loads } = setup();
    expect(cache.lastReadAt()).toBe(0);
    const a = cache.refresh();
    const b = cache.refresh();
    expect(loads).toHaveLength(1);
    loads[0]?.resolve("v1");
    expect((await a).value).toBe("v1");
    expect((await b).value).toBe("v1");
    expect(cache.peek()?.value).toBe("v1");
    await cache.get();
    expect(cache.lastReadAt()).toBe(1_000_000);
  });
});
