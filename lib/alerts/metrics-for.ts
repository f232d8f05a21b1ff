import "server-only";
import type { Db } from "../db.ts";
import type { PromClient } from "../metrics/prom-api.ts";
import { promClientFromEnv } from "../metrics/prom-connection.ts";
import type { AlertMetrics } from "./metrics.ts";
import { createEmbeddedAlertMetrics } from "./metrics-embedded.ts";
import { createPrometheusAlertMetrics } from "./metrics-prometheus.ts";

/** Prometheus when the collector has a client (PROMETHEUS_URL), else the embedded store. */
export function alertMetricsFor(db: Db, prom: PromClient | null = null): AlertMetrics {
  const client = prom ?? promClientFromEnv();
  return client ? createPrometheusAlertMetrics(db, client) : createEmbeddedAlertMetrics(db);
}
