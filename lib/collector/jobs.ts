import "server-only";
import { runLedgerJob } from "./ledger-job.ts";
import type { CollectorConfig } from "./loop.ts";

/** Jobs the leader runs after each collection tick. */
export function serverJobs(): NonNullable<CollectorConfig["jobs"]> {
  return [{ name: "ledger", run: (ctx) => runLedgerJob(ctx) }];
}
