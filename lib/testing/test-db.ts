import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, type Db } from "../db.ts";

/** A fresh, migrated SQLite database in a temp folder: every test makes its own data. */
export function makeTestDb(): { db: Db; url: string } {
  const url = `file:${join(mkdtempSync(join(tmpdir(), "gpufleet-test-")), "test.db")}`;
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "ignore",
  });
  return { db: createDb(url), url };
}
