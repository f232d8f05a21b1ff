import { dropPgTestDbs, pgTemplate } from "./template-db.ts";

// Vitest global setup of the "postgres" project: migrate the template database once, before the
// test files copy it, and drop this run's test databases afterwards. The project exists only when
// GPUFLEET_TEST_PG_URL is set (vitest.config.ts), so a missing or unreachable server is an error
// here, never a silent skip.

function baseUrl(): string {
  const base = process.env.GPUFLEET_TEST_PG_URL;
  if (!base)
    throw new Error(
      'the "postgres" project needs GPUFLEET_TEST_PG_URL (npm test starts a throwaway PostgreSQL and sets it)',
    );
  return base;
}

function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(GPUFLEET_TEST_PG_URL is not a URL)";
  }
}

export async function setup(): Promise<void> {
  const base = baseUrl();
  try {
    await pgTemplate(base);
  } catch (e) {
    throw new Error(
      `PostgreSQL at ${redacted(base)} (GPUFLEET_TEST_PG_URL): ${(e as Error).message}`,
      { cause: e },
    );
  }
}

export async function teardown(): Promise<void> {
  await dropPgTestDbs(baseUrl());
}
