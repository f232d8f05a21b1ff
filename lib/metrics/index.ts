import "server-only";
import { db } from "../db.ts";
import { env } from "../env.ts";
import { createEmbeddedSource } from "./embedded.ts";
import { promFromEnv } from "./prom-connection.ts";
import { createPrometheusSource } from "./prometheus.ts";
import type { MetricsSource } from "./source.ts";

const globalForSource = globalThis as unknown as { gpufleetSource?: MetricsSource };

/** The configured source: Prometheus when PROMETHEUS_URL is set, else the embedded store. */
export function getMetricsSource(): MetricsSource {
  if (!globalForSource.gpufleetSource) {
    const prom = promFromEnv();
    globalForSource.gpufleetSource = prom
      ? createPrometheusSource(db, prom.connection.url, prom.client)
      : createEmbeddedSource(db, env.GPUFLEET_COLLECT_INTERVAL_S);
  }
  return globalForSource.gpufleetSource;
}

export type { MetricsSource } from "./source.ts";
