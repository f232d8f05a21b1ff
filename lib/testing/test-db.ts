import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, type Db } from "../db.ts";
import { randomSuffix, ROOT, TEST_DB_PREFIX } from "./template-db.ts";

// Every test makes its own database. vitest.config.ts runs the tests that call makeTestDb() twice:
// project "sqlite", and project "postgres" (GPUFLEET_TEST_DB=postgres) when GPUFLEET_TEST_PG_URL
// names a PostgreSQL server (`npm test` starts a throwaway one).

export type TestDbKind = "sqlite" | "postgres";

export function testDbKind(): TestDbKind {
  return process.env.GPUFLEET_TEST_DB === "postgres" ? "postgres" : "sqlite";
}

function runTemplateTool(args: string[]): void {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** A fresh, migrated database (SQLite file in a temp folder, or a new PostgreSQL database). */
export function makeTestDb(kind: TestDbKind = testDbKind()): { db: Db; url: string } {
  if (kind === "postgres") {
    const base = process.env.GPUFLEET_TEST_PG_URL;
    if (!base) throw new Error("GPUFLEET_TEST_PG_URL is not set: no PostgreSQL to test against");
    const name = `${TEST_DB_PREFIX}${randomSuffix()}`;
    runTemplateTool(["postgres", name]);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return { db: createDb(url.toString()), url: url.toString() };
  }
  const file = join(mkdtempSync(join(tmpdir(), "gpufleet-test-")), "test.db");
  runTemplateTool(["sqlite", file]);
  const url = `file:${file}`;
  return { db: createDb(url), url };
}
