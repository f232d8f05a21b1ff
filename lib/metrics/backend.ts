import "server-only";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "./embedded/source.ts";
import type { PromClient } from "./prometheus/api.ts";
import { createPrometheusSource } from "./prometheus/source.ts";
import type { MetricsSource } from "./source.ts";

/**
 * The metrics backend a process runs with: the read interface, and in Prometheus mode the client
 * that ingest uses to discover hosts. Built once per process (lib/metrics/index.ts) and carried
 * in the job context, so the embedded/Prometheus choice is made in one place.
 */
export interface MetricsBackend {
  source: MetricsSource;
  /** Prometheus mode: hosts are discovered from it (lib/ingest/discover-prometheus.ts) */
  prom: PromClient | null;
}

/** Embedded mode: reads the collector's minute store; `intervalS` is the scrape interval. */
export function embeddedBackend(db: Db, intervalS: number): MetricsBackend {
  return { source: createEmbeddedSource(db, intervalS), prom: null };
}

/** Prometheus mode: `url` is shown in health messages (never with credentials). */
export function prometheusBackend(db: Db, url: string, client: PromClient): MetricsBackend {
  return { source: createPrometheusSource(db, url, client), prom: client };
}
