import "server-only";
import { db } from "../db.ts";
import { env } from "../env.ts";
import { metricsFromEnv } from "../metrics/index.ts";
import { createCollector, type Collector } from "./loop.ts";
import { serverJobs } from "./server-jobs.ts";

// Started from instrumentation.ts; the globalThis guard keeps it to one loop per process even
// when Next re-evaluates modules.
const g = globalThis as unknown as { gpufleetCollector?: Collector };

export function startServerCollector(): void {
  if (env.GPUFLEET_COLLECTOR === "0" || g.gpufleetCollector) return;
  // throws here, at start, when a password, token or CA file cannot be read
  const metrics = metricsFromEnv();
  g.gpufleetCollector = createCollector(db, {
    intervalS: env.GPUFLEET_COLLECT_INTERVAL_S,
    scrapeTimeoutMs: env.GPUFLEET_SCRAPE_TIMEOUT_MS,
    scrapeConcurrency: env.GPUFLEET_SCRAPE_CONCURRENCY,
    retentionDays: env.GPUFLEET_RETENTION_DAYS,
    metrics,
    ...(env.GPUFLEET_TARGETS_FILE ? { targetsFile: env.GPUFLEET_TARGETS_FILE } : {}),
    jobs: serverJobs(),
  });
}
