import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";
import { PrismaClient as PgPrismaClient } from "./generated/prisma-pg/client.ts";
import { isPostgresUrl } from "./db-url.ts";
import "./db-plan-cache.ts";
import { sqliteAdapter } from "./db-sqlite.ts";
import { env } from "./env.ts";

// One client per process, kept on globalThis so Next's module reloads do not open new ones.
const globalForDb = globalThis as unknown as { gpufleetDb?: PrismaClient };

/** A client for `url`: postgres:// or postgresql:// selects PostgreSQL, anything else SQLite. */
export function createDb(
  url: string = env.DATABASE_URL,
  { sqliteWal = env.GPUFLEET_SQLITE_WAL === "1" }: { sqliteWal?: boolean } = {},
): PrismaClient {
  if (isPostgresUrl(url)) {
    // Both clients come from one datamodel (scripts/gen-pg-schema.ts), so their model APIs match;
    // lib/testing/db-parity.ts checks that at compile time.
    return new PgPrismaClient({
      adapter: new PrismaPg({ connectionString: url }),
    }) as unknown as PrismaClient;
  }
  // GPUFLEET_SQLITE_WAL=1: WAL and synchronous=NORMAL (db-sqlite.ts: a commit no longer fsyncs on
  // the event loop); off by default until the fault suite's locked-store case is settled under it
  return new PrismaClient({
    adapter: sqliteWal ? sqliteAdapter(url) : new PrismaBetterSQLite3({ url }),
  });
}

export const db: PrismaClient = globalForDb.gpufleetDb ?? createDb();
globalForDb.gpufleetDb = db;

export type Db = PrismaClient;
