import "server-only";
import { db } from "../db.ts";
import { env } from "../env.ts";
import { embeddedBackend, prometheusBackend, type MetricsBackend } from "./backend.ts";
import { promFromEnv } from "./prometheus/connection.ts";
import type { MetricsSource } from "./source.ts";

const g = globalThis as unknown as { gpufleetMetrics?: MetricsBackend };

/**
 * The one place the mode is chosen: Prometheus when PROMETHEUS_URL is set, else the embedded
 * store. Throws at first use (the server's start) when a credential file cannot be read.
 */
export function metricsFromEnv(): MetricsBackend {
  if (!g.gpufleetMetrics) {
    const prom = promFromEnv();
    g.gpufleetMetrics = prom
      ? prometheusBackend(db, prom.connection.url, prom.client)
      : embeddedBackend(db, env.GPUFLEET_COLLECT_INTERVAL_S);
  }
  return g.gpufleetMetrics;
}

/** The configured read interface, for pages and API routes. */
export function getMetricsSource(): MetricsSource {
  return metricsFromEnv().source;
}

export type { MetricsBackend } from "./backend.ts";
export type { MetricsSource } from "./source.ts";
