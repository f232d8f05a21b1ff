import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { releaseLease, tryAcquireLease } from "./lease.ts";

let db: Db;
beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

describe("collector lease", () => {
  it("lets one holder in, keeps the other out until it expires or is released", async () => {
    const t0 = new Date(Date.UTC(2026, 0, 1));
    expect(await tryAcquireLease(db, "collector", "a", 30_000, t0)).toBe(true);
    expect(await tryAcquireLease(db, "collector", "b", 30_000, t0)).toBe(false);
    expect(
      await tryAcquireLease(db, "collector", "a", 30_000, new Date(t0.getTime() + 10_000)),
    ).toBe(true);
    expect(
      await tryAcquireLease(db, "collector", "b", 30_000, new Date(t0.getTime() + 41_000)),
    ).toBe(true);
    expect(
      await tryAcquireLease(db, "collector", "a", 30_000, new Date(t0.getTime() + 42_000)),
    ).toBe(false);
    await releaseLease(db, "collector", "b");
    expect(
      await tryAcquireLease(db, "collector", "a", 30_000, new Date(t0.getTime() + 43_000)),
    ).toBe(true);
  });
});
