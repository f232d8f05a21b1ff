import "server-only";
import type { Db } from "../db.ts";
import { env } from "../env.ts";
import { createPromClient, type PromClient } from "../metrics/prom-api.ts";
import type { AlertMetrics } from "./metrics.ts";
import { createEmbeddedAlertMetrics } from "./metrics-embedded.ts";
import { createPrometheusAlertMetrics } from "./metrics-prometheus.ts";

/** Prometheus when the collector has a client (PROMETHEUS_URL), else the embedded store. */
export function alertMetricsFor(db: Db, prom: PromClient | null = null): AlertMetrics {
  const client = prom ?? (env.PROMETHEUS_URL ? createPromClient(env.PROMETHEUS_URL) : null);
  return client ? createPrometheusAlertMetrics(db, client) : createEmbeddedAlertMetrics(db);
}
