// `tsx scripts/migrate.ts [--quiet]`: applies the migrations for DATABASE_URL (default
// file:./data/gpufleet.db). The work is lib/migrate.ts's.
import { migrate } from "../lib/migrate.ts";

try {
  await migrate((await import("../lib/env.ts")).env.DATABASE_URL, {
    quiet: process.argv.includes("--quiet"),
  });
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
