import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
// the same list npm test counts as skipped when there is no PostgreSQL
import { dbTestFiles } from "./scripts/lib/test-setup-report.ts";

// Tests that call makeTestDb() run twice: on SQLite, and on PostgreSQL when GPUFLEET_TEST_PG_URL
// names a server (`npm test` starts a throwaway one). Without it (a plain `npx vitest run`) the
// PostgreSQL run is left out with a notice.
const pgUrl = process.env.GPUFLEET_TEST_PG_URL;

const shown = globalThis as { gpufleetPgNotice?: boolean };
if (!pgUrl && !shown.gpufleetPgNotice) {
  shown.gpufleetPgNotice = true;
  console.warn(
    "NOTICE: GPUFLEET_TEST_PG_URL is not set; skipping the PostgreSQL run of the database tests " +
      "(npm test starts a throwaway PostgreSQL and sets it).",
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
                include: [...dbTestFiles("lib"), ...dbTestFiles("app"), ...dbTestFiles("fault")],
                env: { GPUFLEET_TEST_DB: "postgres" },
                globalSetup: ["lib/testing/pg-global-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
