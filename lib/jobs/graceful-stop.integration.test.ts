import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { embeddedBackend } from "../metrics/backend.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { createCollector, settlesWithin, type CollectorConfig } from "./loop.ts";

// A graceful stop (SIGTERM/SIGINT in scripts/serve.ts) hands the lease over at once: the follower
// leads on its very next tick, not after the lease's TTL (3 intervals + 10 s). Sends in flight get
// a bounded wait. Two collectors on one Db client, ticked by hand.

let db: Db;
beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

function collector(ran: string[], name: string, extra: Partial<CollectorConfig> = {}) {
  return createCollector(db, {
    intervalS: 60,
    scrapeTimeoutMs: 1000,
    scrapeConcurrency: 1,
    retentionDays: 7,
    metrics: embeddedBackend(db, 60),
    autoStart: false,
    jobs: [{ name: "mark", run: async () => void ran.push(name) }],
    log: () => {},
    ...extra,
  });
}

const leaseHolder = async () =>
  (await db.lease.findUnique({ where: { name: "collector" } }))?.holder ?? null;

describe("graceful stop", () => {
  it("releases the lease after waiting for the delivery in flight; the follower leads at once", async () => {
    const ran: string[] = [];
    const a = collector(ran, "a");
    const b = collector(ran, "b");
    await a.tick();
    await b.tick();
    expect(ran).toEqual(["a"]);
    expect(await leaseHolder()).toBe(a.holder);

    let finish = () => {};
    let sent = false;
    const sending = new Promise<void>((r) => (finish = r)).then(() => void (sent = true));
    const stopping = a.shutdown({ timeoutMs: 60_000, inFlight: () => sending });
    // the lease is held while the send is in flight
    await b.tick();
    expect(ran).toEqual(["a"]);
    finish();
    expect(await stopping).toEqual({ drained: true });
    expect(sent).toBe(true);
    expect(await leaseHolder()).toBeNull();
    await b.tick(); // its next tick, well inside the old lease's TTL
    expect(ran).toEqual(["a", "b"]);
    expect(await leaseHolder()).toBe(b.holder);
    // with nothing in flight, the stop is immediate
    expect(await b.shutdown({ timeoutMs: 1000 })).toEqual({ drained: true });
    expect(await leaseHolder()).toBeNull();
  });

  it("gives up waiting after the timeout, still releases the lease and says it did not drain", async () => {
    const ran: string[] = [];
    const a = collector(ran, "a");
    await a.tick();
    expect(await leaseHolder()).toBe(a.holder);
    const never = new Promise<void>(() => {});
    expect(await a.shutdown({ timeoutMs: 20, inFlight: () => never })).toEqual({ drained: false });
    expect(await leaseHolder()).toBeNull();
  });

  it("waits for a tick in progress before releasing", async () => {
    const ran: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const a = collector(ran, "a", {
      jobs: [{ name: "slow", run: async () => gate.then(() => void ran.push("slow done")) }],
    });
    const ticking = a.tick();
    const stopping = a.shutdown({ timeoutMs: 60_000 });
    release();
    await ticking;
    expect(await stopping).toEqual({ drained: true });
    expect(ran).toEqual(["slow done"]);
    expect(await leaseHolder()).toBeNull();
  });

  it("settlesWithin: true for a settled or rejected promise, false past the limit", async () => {
    expect(await settlesWithin(Promise.resolve(), 1000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error("x")), 1000)).toBe(true);
    expect(await settlesWithin(new Promise(() => {}), 5)).toBe(false);
  });
});
