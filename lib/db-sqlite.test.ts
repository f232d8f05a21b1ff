import { afterEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "./db.ts";
import { makeTestDb } from "./testing/test-db.ts";

// With GPUFLEET_SQLITE_WAL=1 the SQLite store is opened in WAL mode with synchronous=NORMAL
// (lib/db-sqlite.ts), on every connection the app makes, before its first query.

const open: Db[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.$disconnect()));
});

async function pragma(d: Db, name: string): Promise<string> {
  const rows = await d.$queryRawUnsafe<Array<Record<string, unknown>>>(`PRAGMA ${name}`);
  return String(Object.values(rows[0] ?? {})[0]);
}

describe("SQLite connections", () => {
  it("use write-ahead logging, synchronous=NORMAL and a busy timeout from the first query", async () => {
    const { url } = makeTestDb("sqlite");
    const db = createDb(url, { sqliteWal: true });
    open.push(db);
    expect(await pragma(db, "journal_mode")).toBe("wal");
    expect(await pragma(db, "synchronous")).toBe("1"); // NORMAL
    expect(await pragma(db, "busy_timeout")).toBe("10000");
  });

  it("a second connection sees what the first committed, and writes beside it", async () => {
    const { url } = makeTestDb("sqlite");
    const db = createDb(url, { sqliteWal: true });
    const other = createDb(url, { sqliteWal: true });
    open.push(db, other);
    await db.appSetting.create({ data: { key: "wal.a", value: "1" } });
    expect(await other.appSetting.findUnique({ where: { key: "wal.a" } })).toMatchObject({
      value: "1",
    });
    await other.appSetting.create({ data: { key: "wal.b", value: "2" } });
    expect(await db.appSetting.count({ where: { key: { startsWith: "wal." } } })).toBe(2);
    expect(await pragma(other, "journal_mode")).toBe("wal");
  });
});
