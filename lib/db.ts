import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/prisma/client.ts";
import { env } from "./env.ts";

// One client per process, kept on globalThis so Next's module reloads do not open new ones.
const globalForDb = globalThis as unknown as { gpufleetDb?: PrismaClient };

export function createDb(url: string = env.DATABASE_URL): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

export const db: PrismaClient = globalForDb.gpufleetDb ?? createDb();
globalForDb.gpufleetDb = db;

export type Db = PrismaClient;
