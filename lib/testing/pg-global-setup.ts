import { dropPgTestDbs, pgTemplate } from "./template-db.ts";

// Vitest global setup of the "postgres" project: migrate the template database once, before the
// test files copy it, and drop this run's test databases afterwards.

export async function setup(): Promise<void> {
  const base = process.env.GPUFLEET_TEST_PG_URL;
  if (base) await pgTemplate(base);
}

export async function teardown(): Promise<void> {
  const base = process.env.GPUFLEET_TEST_PG_URL;
  if (base) await dropPgTestDbs(base);
}
