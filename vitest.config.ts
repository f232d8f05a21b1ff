import { defineConfig } from "vitest/config";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Tests that call makeTestDb() run twice: on SQLite, and on PostgreSQL when GPUFLEET_TEST_PG_URL
// names a server (.ci/run starts one). Without it the PostgreSQL run is skipped with a notice.
const pgUrl = process.env.GPUFLEET_TEST_PG_URL;

function dbTestFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.includes("node_modules"))
    .map((f) => join(dir, f))
    .filter((f) => readFileSync(f, "utf8").includes("makeTestDb("));
}

const shown = globalThis as { gpufleetPgNotice?: boolean };
if (!pgUrl && !shown.gpufleetPgNotice) {
  shown.gpufleetPgNotice = true;
  console.warn(
    "NOTICE: GPUFLEET_TEST_PG_URL is not set; skipping the PostgreSQL run of the database tests " +
      "(.ci/run starts PostgreSQL and sets it).",
  );
}

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      "server-only": fileURLToPath(new URL("./lib/testing/server-only.ts", import.meta.url)),
    },
  },
  test: {
    exclude: ["node_modules/**", "e2e/**", ".next/**", "dist/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      // a project's include would be merged with a root one, so each project names its own
      { extends: true, test: { name: "sqlite", include: ["**/*.test.ts", "**/*.test.tsx"] } },
      ...(pgUrl
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: [...dbTestFiles("lib"), ...dbTestFiles("app")],
                env: { GPUFLEET_TEST_DB: "postgres" },
                globalSetup: ["lib/testing/pg-global-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
