import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { isPostgresUrl } from "./lib/db-url.ts";
import { cliPgAdapter } from "./prisma/postgres/cli-adapter.ts";

// The CLI must always see a resolvable URL, or Prisma 6.19 tries to download an engine.
process.env.DATABASE_URL ??= "file:./data/gpufleet.db";
const url = process.env.DATABASE_URL;
// A postgres:// URL selects the PostgreSQL schema (generated from the SQLite one) and migrations.
const postgres = isPostgresUrl(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: postgres ? "prisma/postgres/migrations" : "prisma/migrations" },
  adapter: async () => (postgres ? cliPgAdapter(url) : new PrismaBetterSQLite3({ url })),
});
