import "server-only";
import { db } from "../db.ts";
import { env } from "../env.ts";
import { metricsFromEnv } from "../metrics/index.ts";
import { deliveryInFlight } from "../notify/job.ts";
import { createCollector, type Collector } from "./loop.ts";
import { serverJobs } from "./server-jobs.ts";

// Started from instrumentation.ts; the globalThis guard keeps it to one loop per process even
// when Next re-evaluates modules. scripts/serve.ts loads Next's bundle, not these modules, so the
// graceful stop is handed to it through globalThis too (gpufleetStopCollector).
export type StopCollector = () => Promise<{ drained: boolean }>;
const g = globalThis as unknown as {
  gpufleetCollector?: Collector;
  gpufleetStopCollector?: StopCollector;
};

export function startServerCollector(): void {
  if (env.GPUFLEET_COLLECTOR === "0" || g.gpufleetCollector) return;
  // throws here, at start, when a password, token or CA file cannot be read
  const metrics = metricsFromEnv();
  const collector = createCollector(db, {
    intervalS: env.GPUFLEET_COLLECT_INTERVAL_S,
    scrapeTimeoutMs: env.GPUFLEET_SCRAPE_TIMEOUT_MS,
    scrapeConcurrency: env.GPUFLEET_SCRAPE_CONCURRENCY,
    retentionDays: env.GPUFLEET_RETENTION_DAYS,
    metrics,
    ...(env.GPUFLEET_TARGETS_FILE ? { targetsFile: env.GPUFLEET_TARGETS_FILE } : {}),
    jobs: serverJobs(),
  });
  g.gpufleetCollector = collector;
  g.gpufleetStopCollector = () => stopServerCollector();
}

/**
 * Graceful stop: no new ticks, sends in flight get GPUFLEET_STOP_TIMEOUT_MS to finish (those cut
 * short are sent again once their claim expires), and the lease is released for a replica.
 */
export async function stopServerCollector(): Promise<{ drained: boolean }> {
  const collector = g.gpufleetCollector;
  if (!collector) return { drained: true };
  g.gpufleetCollector = undefined;
  return collector.shutdown({
    timeoutMs: env.GPUFLEET_STOP_TIMEOUT_MS,
    inFlight: deliveryInFlight,
  });
}
