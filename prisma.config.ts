import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// The CLI must always see a resolvable URL, or Prisma 6.19 tries to download an engine.
process.env.DATABASE_URL ??= "file:./data/gpufleet.db";
const url = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  adapter: async () => new PrismaBetterSQLite3({ url }),
});
