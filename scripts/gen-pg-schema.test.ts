import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createEmptyPgDb, dropPgDb, randomSuffix, ROOT } from "../lib/testing/template-db.ts";
import { nextMigrationName, PG_SCHEMA, pgSchemaFrom, SQLITE_SCHEMA } from "./gen-pg-schema.ts";

// The PostgreSQL schema is generated from the SQLite one; these fail when they drift apart, or
// when the PostgreSQL migrations no longer build the PostgreSQL schema.

const pgUrl = process.env.GPUFLEET_TEST_PG_URL;
if (!pgUrl)
  console.warn("NOTICE: GPUFLEET_TEST_PG_URL is not set; skipping the PostgreSQL migrations check");

describe("PostgreSQL schema generated from the SQLite schema", () => {
  const sqlite = readFileSync(SQLITE_SCHEMA, "utf8");

  it("is committed up to date (else run `npm run db:gen-pg`)", () => {
    expect(readFileSync(PG_SCHEMA, "utf8")).toBe(pgSchemaFrom(sqlite));
  });

  it("differs only in the datasource provider and the client's output path", () => {
    const pgLines = pgSchemaFrom(sqlite).split("\n").slice(3); // without the generated header
    const sqliteLines = sqlite.split("\n");
    expect(pgLines).toHaveLength(sqliteLines.length);
    const changed = pgLines.filter((l, i) => l !== sqliteLines[i]).map((l) => l.trim());
    expect(changed).toEqual([
      'output              = "../../lib/generated/prisma-pg"',
      'provider = "postgresql"',
    ]);
  });

  it("refuses a schema it does not recognise rather than guess", () => {
    expect(() => pgSchemaFrom(sqlite.replace('"sqlite"', '"mysql"'))).toThrow(/provider/);
  });

  it("names a new migration after the newest SQLite migration it mirrors", () => {
    const sqliteDirs = ["20261129000000_init", "20261129180000_alerting", "20261201000000_x"];
    expect(nextMigrationName(sqliteDirs, ["20261129180000_init"])).toBe("20261201000000_x");
    expect(
      nextMigrationName(sqliteDirs, ["20261201000000_x"], new Date("2026-12-02T03:04:05Z")),
    ).toBe("20261202030405_schema");
  });

  it.skipIf(!pgUrl)("has migrations that build exactly the generated schema", async () => {
    const base = pgUrl ?? "";
    // not TEST_DB_PREFIX: the postgres project's teardown drops those, maybe while this runs
    const name = `gpufleet_check_${randomSuffix()}`;
    const url = await createEmptyPgDb(base, name);
    try {
      // the CLI applies the migrations to this empty database, then diffs it with the schema
      const r = spawnSync(
        "npx",
        [
          "prisma",
          "migrate",
          "diff",
          "--from-migrations",
          "prisma/postgres/migrations",
          "--to-schema-datamodel",
          PG_SCHEMA,
          "--exit-code",
        ],
        { cwd: ROOT, encoding: "utf8", env: { ...process.env, DATABASE_URL: url } },
      );
      expect(r.status, `${r.stdout}\n${r.stderr}\n(run \`npm run db:gen-pg\`)`).toBe(0);
    } finally {
      await dropPgDb(base, name);
    }
  });
});
