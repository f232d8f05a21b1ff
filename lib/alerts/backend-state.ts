import "server-only";
import type { Db } from "../db.ts";
import type { MetricsSource } from "../metrics/source.ts";

// Can the metrics backend be read right now? In Prometheus mode every evaluation first asks it a
// trivial query (MetricsSource.health). Any failure (refused, timed out, a 5xx, TLS) makes it
// UNAVAILABLE for that pass: an explicit outcome, never an empty result. Rules that read GPU
// metrics report an error, rules that judge host liveness (which discovery learns from the same
// backend) are held, neither fired nor resolved, and the metrics_backend_down rule judges the
// outage itself. Embedded mode: the backend is the app's own store, so there is nothing to probe
// (null); a store failure fails the whole evaluation instead.
//
// The outcome is kept in one JobState row, written only when it changes, so "down since" and
// "answering again since" survive restarts and are shared by replicas.

export const BACKEND_STATE = "alerts.metricsBackend";

export interface BackendState {
  ok: boolean;
  /** ok: since when it answers; down: the first failed probe of this outage */
  since: Date;
  /** ok after an outage: host silence is counted from `since`, not from a lastSeen the outage froze */
  recovered: boolean;
  /** the probe's error while down (the address, never credentials) */
  error: string | null;
  /** the last time it answered before this outage, when known */
  lastOkAt: Date | null;
}

function date(v: unknown): Date | null {
  if (typeof v !== "string") return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

/** The stored outcome, or null when there is none (or it cannot be read: then it is rewritten). */
export async function readBackendState(db: Db): Promise<BackendState | null> {
  const row = await db.jobState.findUnique({ where: { name: BACKEND_STATE } });
  if (!row) return null;
  try {
    const v = JSON.parse(row.value) as Record<string, unknown>;
    const since = date(v.since);
    if (typeof v.ok !== "boolean" || since === null) return null;
    return {
      ok: v.ok,
      since,
      recovered: v.recovered === true,
      error: typeof v.error === "string" ? v.error : null,
      lastOkAt: date(v.lastOkAt),
    };
  } catch {
    return null;
  }
}

async function write(db: Db, s: BackendState): Promise<BackendState> {
  const value = JSON.stringify({
    ok: s.ok,
    since: s.since.toISOString(),
    recovered: s.recovered,
    error: s.error,
    lastOkAt: s.lastOkAt?.toISOString() ?? null,
  });
  await db.jobState.upsert({
    where: { name: BACKEND_STATE },
    create: { name: BACKEND_STATE, value },
    update: { value },
  });
  return s;
}

/** Probes the backend once (Prometheus mode; null in embedded mode) and records what changed. */
export async function probeBackend(
  db: Db,
  metrics: Pick<MetricsSource, "mode" | "health">,
  now: Date,
): Promise<BackendState | null> {
  if (metrics.mode !== "prometheus") return null;
  const health = await metrics.health();
  const prev = await readBackendState(db);
  if (health.ok) {
    if (prev?.ok) return prev;
    return write(db, {
      ok: true,
      since: now,
      recovered: prev !== null,
      error: null,
      lastOkAt: now,
    });
  }
  const error = health.error ?? "the metrics backend did not answer";
  if (prev && !prev.ok) return prev.error === error ? prev : write(db, { ...prev, error });
  return write(db, {
    ok: false,
    since: now,
    recovered: false,
    error,
    lastOkAt: health.lastSuccess,
  });
}
