// Applying the migrations for a DATABASE_URL; `tsx scripts/migrate.ts [--quiet]` is its command
// (DATABASE_URL, default file:./data/gpufleet.db), tests and benchmarks call migrate() directly. SQLite: `prisma migrate deploy` on prisma/migrations, as always.
// PostgreSQL: creates the database when missing (and the role may), then applies
// prisma/postgres/migrations; prisma.config.ts picks that schema and a CLI adapter for the URL.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import pg from "pg";
import { isPostgresUrl, redactUrl } from "./db-url.ts";

export const PG_MIGRATIONS = "prisma/postgres/migrations";

/** Names of the committed PostgreSQL migrations, oldest first. */
export function pgMigrationNames(dir = PG_MIGRATIONS): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the URL's database when it does not exist; returns true when it created it. */
export async function ensurePgDatabase(url: string): Promise<boolean> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`no database name in ${redactUrl(url)}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  return withClient(admin.toString(), async (c) => {
    const found = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return false;
    await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return true;
  });
}

/** True when every committed migration is recorded as applied (so the CLI can be skipped). */
async function pgUpToDate(url: string): Promise<boolean> {
  return withClient(url, async (c) => {
    const table = await c.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS ok");
    if (table.rows[0]?.ok !== true) return false;
    const applied = await c.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    const done = new Set(applied.rows.map((r) => r.migration_name));
    return pgMigrationNames().every((n) => done.has(n));
  });
}

/** Applies the migrations for `url`; throws with the CLI's output when they fail. */
export async function migrate(url: string, opts: { quiet?: boolean } = {}): Promise<void> {
  const say = (m: string) => {
    if (!opts.quiet) console.log(`gpufleet: ${m}`);
  };
  if (isPostgresUrl(url)) {
    try {
      if (await ensurePgDatabase(url)) say(`created database ${redactUrl(url)}`);
      // The CLI takes about 12 s on PostgreSQL even with nothing to do (Prisma 6.19.3).
      if (await pgUpToDate(url)) return say("PostgreSQL migrations already applied");
    } catch (e) {
      // No CREATEDB right, or no `postgres` database: migrate deploy reports what is wrong.
      say(`could not check the database first: ${(e as Error).message}`);
    }
  }
  const r = spawnSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
    stdio: opts.quiet ? "pipe" : "inherit",
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new Error(
      `prisma migrate deploy failed for ${redactUrl(url)} (exit ${r.status ?? r.signal})\n` +
        `${r.stdout ?? ""}${r.stderr ?? ""}`,
    );
}
