import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { embeddedSchema, PRISMA_CLIENTS, staleClients } from "./prisma-clients.ts";

// `npm start` regenerates both Prisma clients when either is missing or was generated from
// another schema: a stale PostgreSQL client broke the build with "Can't resolve
// './generated/prisma-pg/client.ts'" while start only looked at the SQLite one.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "gpufleet-clients-"));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A generated class.ts as Prisma writes it: the schema embedded as a JSON string. */
const generatedFrom = (schema: string) =>
  `const config = {\n  "inlineSchema": ${JSON.stringify(schema)},\n  "inlineSchemaHash": "x"\n}\n`;

const [sqlite, pg] = PRISMA_CLIENTS;
const SQLITE = 'datasource db {\n  provider = "sqlite"\n}\nmodel A {\n  id String @id\n}\n';
const PG = SQLITE.replace("sqlite", "postgresql");

describe("the Prisma clients npm start checks", () => {
  it("reads the schema a generated client embeds", () => {
    expect(embeddedSchema(generatedFrom(SQLITE))).toBe(SQLITE);
    expect(embeddedSchema("export {}")).toBeNull();
  });

  it("nothing to do when both clients match their schemas", () => {
    if (!sqlite || !pg) throw new Error("two clients expected");
    const root = tree({
      [sqlite.schema]: SQLITE,
      [pg.schema]: PG,
      [sqlite.generated]: generatedFrom(SQLITE),
      [pg.generated]: generatedFrom(PG),
    });
    expect(staleClients(root)).toEqual([]);
  });

  it("a missing or stale PostgreSQL client is found, not only the SQLite one", () => {
    if (!sqlite || !pg) throw new Error("two clients expected");
    const missing = tree({
      [sqlite.schema]: SQLITE,
      [pg.schema]: PG,
      [sqlite.generated]: generatedFrom(SQLITE),
    });
    expect(staleClients(missing)).toEqual(["the postgresql client is missing"]);
    const changed = `${PG}model B {\n  id String @id\n}\n`;
    const stale = tree({
      [sqlite.schema]: SQLITE,
      [pg.schema]: changed,
      [sqlite.generated]: generatedFrom(SQLITE),
      [pg.generated]: generatedFrom(PG),
    });
    expect(staleClients(stale)).toEqual([
      "the postgresql client is older than prisma/postgres/schema.prisma",
    ]);
  });

  it("the shipped paths are the ones lib/db.ts imports", async () => {
    const { readFileSync } = await import("node:fs");
    const db = readFileSync("lib/db.ts", "utf8");
    expect(db).toContain("./generated/prisma/client.ts");
    expect(db).toContain("./generated/prisma-pg/client.ts");
  });
});
