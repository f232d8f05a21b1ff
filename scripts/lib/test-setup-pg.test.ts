import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { setup as pgGlobalSetup } from "../../lib/testing/pg-global-setup.ts";
import { pgBinDir } from "./test-setup.ts";
import { PG_DIR_PREFIX, socketPathFits, sweepStale, ThrowawayPg } from "./test-setup-pg.ts";

describe("the cluster's directory", () => {
  it("refuses a temp directory too long for a unix socket", () => {
    expect(socketPathFits("/tmp/gpufleet-testpg-abc123")).toBe(true);
    expect(socketPathFits(`/tmp/${"x".repeat(100)}`)).toBe(false);
  });
});

describe("the postgres project's global setup", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("fails, not skips, without GPUFLEET_TEST_PG_URL", async () => {
    vi.stubEnv("GPUFLEET_TEST_PG_URL", "");
    await expect(pgGlobalSetup()).rejects.toThrow(/"postgres" project needs GPUFLEET_TEST_PG_URL/);
  });

  it("names the server it could not reach, without its password", async () => {
    const closed = `postgresql://gpufleet:secret@127.0.0.1:1/gpufleet`;
    vi.stubEnv("GPUFLEET_TEST_PG_URL", closed);
    const err = await pgGlobalSetup().then(
      () => null,
      (e: Error) => e.message,
    );
    expect(err).toMatch(
      /^PostgreSQL at postgresql:\/\/gpufleet:\*\*\*@127\.0\.0\.1:1\/gpufleet \(GPUFLEET_TEST_PG_URL\): /,
    );
    expect(err).not.toContain("secret");
  });
});

describe("sweepStale", () => {
  const root = mkdtempSync(join(tmpdir(), "gpufleet-sweep-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("removes directories of runs that died, keeps live ones and ones being created", () => {
    const dead = spawnSync("true").pid;
    const make = (name: string, owner?: string) => {
      mkdirSync(join(root, name));
      if (owner !== undefined) writeFileSync(join(root, name, "npm-test.pid"), owner);
    };
    make(`${PG_DIR_PREFIX}dead`, String(dead));
    make(`${PG_DIR_PREFIX}live`, String(process.pid));
    make(`${PG_DIR_PREFIX}new`);
    make("someone-else", String(dead));
    sweepStale(root);
    expect(readdirSync(root).sort()).toEqual([
      `${PG_DIR_PREFIX}live`,
      `${PG_DIR_PREFIX}new`,
      "someone-else",
    ]);
  });
});

const bin = pgBinDir(process.env, {
  exists: existsSync,
  list: (d) => (existsSync(d) ? readdirSync(d) : []),
});

describe.skipIf(!bin)("a throwaway PostgreSQL cluster", () => {
  it("serves gpufleet/gpufleet on 127.0.0.1 and leaves nothing behind", async () => {
    const server = new ThrowawayPg(bin?.dir ?? "");
    try {
      const url = await server.start();
      expect(url).toBe(`postgresql://gpufleet:gpufleet@127.0.0.1:${server.port}/gpufleet`);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const r = await c.query<{ u: string; db: string }>(
        "SELECT current_user u, current_database() db",
      );
      await c.end();
      expect(r.rows).toEqual([{ u: "gpufleet", db: "gpufleet" }]);
      const wrong = new pg.Client({ connectionString: url.replace(":gpufleet@", ":nope@") });
      await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
    } finally {
      const dir = server.dir ?? "";
      server.stop();
      expect(existsSync(dir)).toBe(false);
    }
    const again = new pg.Client({
      connectionString: `postgresql://gpufleet:gpufleet@127.0.0.1:${server.port}/gpufleet`,
    });
    await expect(again.connect()).rejects.toThrow(/ECONNREFUSED/);
  }, 60_000);

  it("runs without fsync for tests, and with it when asked to be durable (benchmarks)", async () => {
    const settings = async (server: ThrowawayPg) => {
      try {
        const c = new pg.Client({ connectionString: await server.start() });
        await c.connect();
        const r = await c.query<{ name: string; setting: string }>(
          "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit') ORDER BY name",
        );
        await c.end();
        return r.rows.map((x) => `${x.name}=${x.setting}`);
      } finally {
        server.stop();
      }
    };
    expect(await settings(new ThrowawayPg(bin?.dir ?? ""))).toEqual([
      "fsync=off",
      "synchronous_commit=off",
    ]);
    expect(await settings(new ThrowawayPg(bin?.dir ?? "", { durable: true }))).toEqual([
      "fsync=on",
      "synchronous_commit=on",
    ]);
  }, 60_000);

  it("says initdb failed, and stop() still removes its directory", async () => {
    const server = new ThrowawayPg("/nonexistent/bin");
    await expect(server.start()).rejects.toThrow(/^initdb failed: .*ENOENT/);
    const dir = server.dir ?? "";
    expect(existsSync(dir)).toBe(true);
    server.stop();
    expect(existsSync(dir)).toBe(false);
  });
});
