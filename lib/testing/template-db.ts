// Migrated template databases for tests: migrating takes seconds (about 12 s on PostgreSQL with
// Prisma 6.19.3), so it happens once per set of migrations and each test copies the result.
// `node --import tsx lib/testing/template-db.ts <sqlite|postgres> <name>` runs it out of process,
// which keeps makeTestDb() synchronous for the tests that already call it that way.
import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrate } from "../migrate.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const TEST_DB_PREFIX = "gpufleet_test_";
const TEMPLATE_PREFIX = "gpufleet_tmpl_";
const id = (name: string) => pg.escapeIdentifier(name);

/** A short hash of every migration in `dir`: a new migration means a new template. */
export function migrationsHash(dir: string): string {
  const h = createHash("sha256");
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name, "migration.sql");
    if (!existsSync(file)) continue;
    h.update(name).update("\0").update(readFileSync(file)).update("\0");
  }
  return h.digest("hex").slice(0, 12);
}

export function randomSuffix(): string {
  return `${process.pid}_${randomBytes(4).toString("hex")}`;
}

/** Path of a migrated SQLite file for the current migrations, built on first use. */
export async function sqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), "gpufleet-test-templates");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `sqlite-${migrationsHash(join(ROOT, "prisma/migrations"))}.db`);
  if (existsSync(file)) return file;
  const building = `${file}.${randomSuffix()}`;
  await migrate(`file:${building}`, { quiet: true });
  renameSync(building, file); // atomic: racing builders leave one identical file
  return file;
}

/** A fresh SQLite database file copied from the template. */
export async function createSqliteTestDb(file: string): Promise<void> {
  copyFileSync(await sqliteTemplate(), file);
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(baseUrl, "postgres") });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function databases(c: pg.Client, prefix: string): Promise<string[]> {
  const r = await c.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
    [prefix],
  );
  return r.rows.map((x) => x.datname);
}

/** Name of the migrated template database for the current migrations, built on first use. */
export async function pgTemplate(baseUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash(join(ROOT, "prisma/postgres/migrations"))}`;
  const exists = await admin(baseUrl, async (c) => (await databases(c, name)).includes(name));
  if (exists) return name;
  const building = `${name}_${randomSuffix()}`;
  await migrate(withDatabase(baseUrl, building), { quiet: true });
  await admin(baseUrl, async (c) => {
    try {
      await c.query(`ALTER DATABASE ${id(building)} RENAME TO ${id(name)}`);
    } catch {
      await c.query(`DROP DATABASE IF EXISTS ${id(building)}`); // another builder won the race
    }
  });
  return name;
}

/** Creates database `name` from the template; returns its URL. */
export async function createPgTestDb(baseUrl: string, name: string): Promise<string> {
  const template = await pgTemplate(baseUrl);
  await admin(baseUrl, async (c) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${id(name)} TEMPLATE ${id(template)}`);
        return;
      } catch (e) {
        // "source database is being accessed by other users": another CREATE is copying it
        if (attempt >= 20) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return withDatabase(baseUrl, name);
}

/** Creates an empty database (no migrations); returns its URL. */
export async function createEmptyPgDb(baseUrl: string, name: string): Promise<string> {
  await admin(baseUrl, (c) => c.query(`CREATE DATABASE ${id(name)}`));
  return withDatabase(baseUrl, name);
}

export async function dropPgDb(baseUrl: string, name: string): Promise<void> {
  await admin(baseUrl, async (c) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await c.query(`DROP DATABASE IF EXISTS ${id(name)} WITH (FORCE)`);
        return;
      } catch (e) {
        // FORCE may not end a backend of another role: an autovacuum worker that has just started
        // on the database (42501, seen once in a fresh-clone run) or one still leaving it (55006);
        // both are gone a moment later
        const code = (e as { code?: string }).code;
        if (attempt >= 30 || (code !== "42501" && code !== "55006")) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
}

/** Drops test databases, and templates for migrations that no longer exist. */
export async function dropPgTestDbs(baseUrl: string): Promise<number> {
  const current = await pgTemplate(baseUrl);
  return admin(baseUrl, async (c) => {
    const stale = [
      ...(await databases(c, TEST_DB_PREFIX)),
      ...(await databases(c, TEMPLATE_PREFIX)).filter((n) => n !== current),
    ];
    for (const n of stale) await c.query(`DROP DATABASE IF EXISTS ${id(n)} WITH (FORCE)`);
    return stale.length;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [kind, target] = process.argv.slice(2);
  try {
    if (kind === "sqlite" && target) await createSqliteTestDb(target);
    else if (kind === "postgres" && target) {
      const base = process.env.GPUFLEET_TEST_PG_URL;
      if (!base) throw new Error("GPUFLEET_TEST_PG_URL is not set");
      await createPgTestDb(base, target);
    } else throw new Error("usage: template-db.ts <sqlite FILE | postgres NAME>");
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
