import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { planCacheStats } from "./db-plan-cache.ts";

let db: Db;

beforeAll(() => {
  db = makeTestDb().db;
});

afterAll(async () => {
  await db.$disconnect();
});

describe("the query plan cache", () => {
  it("compiles a repeated query once and answers it from the store each time", async () => {
    const read = () =>
      db.host.findMany({ where: { team: "cache-test" }, select: { hostname: true } });
    expect(await read()).toEqual([]);
    const before = planCacheStats();
    await db.host.create({ data: { hostname: "cached-a", team: "cache-test" } });
    expect(await read()).toEqual([{ hostname: "cached-a" }]);
    const after = planCacheStats();
    expect(after.hits).toBeGreaterThan(before.hits);
  });

  it("runs defaults (ids, now()) at execution: one create repeated makes distinct rows", async () => {
    const data = { actor: "cache@test", action: "cache.test", target: "t" };
    const a = await db.auditEvent.create({ data });
    const b = await db.auditEvent.create({ data });
    expect(a.id).not.toBe(b.id);
    expect(await db.auditEvent.count({ where: { action: "cache.test" } })).toBe(2);
  });

  it("stamps now() and @updatedAt at execution when the plan is reused", async () => {
    const data = { actor: "cache@test", action: "cache.clock", target: "t" };
    await db.auditEvent.create({ data });
    const host = await db.host.create({ data: { hostname: "cached-clock", team: "a" } });
    const touch = () => db.host.update({ where: { id: host.id }, data: { team: "b" } });
    const first = await touch();
    // a change of clock, not a wait: the stamps must differ by at least a millisecond
    const t0 = Date.now();
    while (Date.now() - t0 < 5) await new Promise((r) => setTimeout(r, 1));
    const hits = planCacheStats().hits;
    await db.auditEvent.create({ data });
    const second = await touch();
    expect(planCacheStats().hits).toBeGreaterThanOrEqual(hits + 2);
    const stamps = await db.auditEvent.findMany({ where: { action: "cache.clock" } });
    expect(new Set(stamps.map((r) => r.at.getTime())).size).toBe(2);
    expect(second.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
  });

  it("compiles large requests without keeping them", async () => {
    const ids = Array.from({ length: 600 }, (_, i) => `not-a-host-${i}-${"x".repeat(10)}`);
    const before = planCacheStats();
    expect(await db.host.findMany({ where: { id: { in: ids } } })).toEqual([]);
    expect(planCacheStats().skipped).toBe(before.skipped + 1);
  });
});
