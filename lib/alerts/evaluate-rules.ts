import "server-only";
import type { Db } from "../db.ts";
import { loadBudgetFiguresMany } from "../budgets/load-status.ts";
import type { EvaluateResult } from "../zod/schemas/alert.ts";
import {
  eccParamsSchema,
  temperatureParamsSchema,
  throttleParamsSchema,
  type RuleKind,
} from "../zod/schemas/rule.ts";
import { evaluateBudgets, type BudgetSubject } from "./evaluate-budget.ts";
import {
  evaluateEcc,
  evaluateExporterDown,
  evaluateGpuMissing,
  evaluateTemperature,
  evaluateThrottle,
} from "./evaluate-health.ts";
import { evaluateIdle, idleWindow } from "./evaluate-idle.ts";
import { withIdleHolders } from "./idle-holders.ts";
import { probeBackend, type BackendState } from "./backend-state.ts";
import { evaluateBackendDown, READS_LIVENESS, READS_METRICS } from "./evaluate-backend.ts";
import { evaluateSpotInterruption } from "./evaluate-spot.ts";
import {
  ruleFacts,
  type Condition,
  type GpuFacts,
  type HostFacts,
  type RuleFacts,
} from "./facts.ts";
import { loadFacts } from "./load-facts.ts";
import type { GpuWindowStats, MetricsSource } from "../metrics/source.ts";
import { addEvent, reconcileRule } from "./reconcile.ts";

// One evaluation pass: every enabled rule against the store and the metrics source. A rule whose
// inputs fail to load is skipped (its alerts stay as they are) rather than resolved by mistake.
// In Prometheus mode the backend is probed first: while it cannot be read, metric rules report
// that error and liveness rules are held (lib/alerts/backend-state.ts, evaluate-backend.ts).

export const LAST_EVALUATED = "alerts.lastEvaluatedAt";

export interface EvaluateOptions {
  now: Date;
  /** the reads the rules need (the process's MetricsSource, or a test's fake); `health` is the
   * Prometheus-mode probe, unused in embedded mode */
  /** processes: who holds an idle GPU (issue 24); without it idle alerts name the owner only */
  metrics: Pick<MetricsSource, "mode" | "gpuWindow" | "health"> &
    Partial<Pick<MetricsSource, "processes">>;
  /** the collector's interval: "not reporting for N intervals" is measured in it */
  intervalS: number;
}

interface Inputs {
  db: Db;
  opts: EvaluateOptions;
  hosts: Map<string, HostFacts>;
  gpus: Map<string, GpuFacts>;
  window: (minutes: number) => Promise<GpuWindowStats[]>;
  budgets: () => Promise<BudgetSubject[]>;
  /** Prometheus mode: the backend probe's outcome this pass; null in embedded mode */
  backend: BackendState | null;
  /** names of the enabled rules held while the backend is down */
  held: readonly string[];
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= fn());
}

async function loadBudgets(db: Db, hosts: Map<string, HostFacts>, now: Date) {
  const rows = await db.budget.findMany({ orderBy: { createdAt: "asc" } });
  const figures = await loadBudgetFiguresMany(db, rows, now);
  return rows.map((b, i): BudgetSubject => {
    const owners = new Set<string>();
    for (const h of hosts.values()) {
      const inScope =
        b.scopeKind === "fleet"
          ? false
          : (b.scopeKind === "team" && h.team === b.scopeValue) ||
            (b.scopeKind === "project" && h.project === b.scopeValue) ||
            (b.scopeKind === "provider" && h.provider === b.scopeValue);
      if (inScope && h.owner) owners.add(h.owner);
    }
    return { ...b, figures: figures[i] as BudgetSubject["figures"], owners: [...owners].sort() };
  });
}

/** The rule's conditions now; null when it cannot be judged (held: its alerts stay as they are). */
async function conditionsFor(rule: RuleFacts, x: Inputs): Promise<Condition[] | null> {
  const { now, intervalS } = x.opts;
  const down = x.backend !== null && !x.backend.ok;
  if (down && READS_METRICS.has(rule.kind))
    throw new Error(x.backend?.error ?? "the metrics backend did not answer");
  if (down && READS_LIVENESS.has(rule.kind)) return null;
  // answering again after an outage: silence is counted from then (lastSeen froze meanwhile)
  const observedFrom = x.backend?.ok && x.backend.recovered ? x.backend.since : null;
  const stats = async (minutes: number) => ({
    rule,
    stats: await x.window(minutes),
    hosts: x.hosts,
    gpus: x.gpus,
  });
  switch (rule.kind) {
    case "idle": {
      const w = idleWindow(rule, now);
      const minutes = Math.round((w.to.getTime() - w.from.getTime()) / 60_000);
      const idle = evaluateIdle(rule, await x.window(minutes), x.hosts, x.gpus, now, intervalS);
      return withIdleHolders(idle, x.opts.metrics, x.db);
    }
    case "budget":
      return evaluateBudgets(rule, await x.budgets());
    case "exporter_down":
      return evaluateExporterDown(rule, x.hosts.values(), now, intervalS, observedFrom);
    case "gpu_missing":
      return evaluateGpuMissing(rule, x.hosts, x.gpus.values(), now, intervalS, observedFrom);
    case "ecc":
      return evaluateEcc(await stats(eccParamsSchema.parse(rule.params).windowMinutes));
    case "temperature":
      return evaluateTemperature(
        await stats(temperatureParamsSchema.parse(rule.params).durationMinutes),
      );
    case "throttle":
      return evaluateThrottle(await stats(throttleParamsSchema.parse(rule.params).durationMinutes));
    case "spot_interruption":
      return evaluateSpotInterruption(rule, x.hosts.values(), now);
    case "metrics_backend_down":
      return evaluateBackendDown(rule, x.backend, now, intervalS, x.held);
  }
}

/** Resolves what a disabled rule left open, so switching a rule off clears its alerts. */
async function closeDisabled(db: Db, now: Date): Promise<number> {
  const stale = await db.alert.findMany({
    where: { state: { in: ["firing", "acknowledged"] }, rule: { enabled: false } },
    select: { id: true, state: true, fingerprint: true },
  });
  let n = 0;
  for (const a of stale) {
    const done = await db.alert.updateMany({
      where: { id: a.id, openKey: a.fingerprint },
      data: { state: "resolved", endsAt: now, openKey: null },
    });
    if (done.count === 1) {
      n++;
      await addEvent(db, a.id, a.state, "resolved", now, "rule disabled");
    }
  }
  return n;
}

export async function evaluateAlerts(db: Db, opts: EvaluateOptions): Promise<EvaluateResult> {
  const { now } = opts;
  const out: EvaluateResult = {
    rules: 0,
    fired: 0,
    resolved: 0,
    notificationsQueued: 0,
    errors: [],
  };
  out.resolved += await closeDisabled(db, now);
  const rows = await db.alertRule.findMany({
    where: { enabled: true },
    orderBy: { createdAt: "asc" },
  });
  if (rows.length > 0) {
    const backend = await probeBackend(db, opts.metrics, now);
    const { hosts, gpus } = await loadFacts(db, now);
    const windows = new Map<number, Promise<GpuWindowStats[]>>();
    const inputs: Inputs = {
      db,
      opts,
      hosts,
      gpus,
      window: (minutes) => {
        let p = windows.get(minutes);
        if (!p) {
          p = opts.metrics.gpuWindow(new Date(now.getTime() - minutes * 60_000), now);
          windows.set(minutes, p);
        }
        return p;
      },
      budgets: once(() => loadBudgets(db, hosts, now)),
      backend,
      held: rows
        .filter(
          (r) => READS_METRICS.has(r.kind as RuleKind) || READS_LIVENESS.has(r.kind as RuleKind),
        )
        .map((r) => r.name),
    };
    const hostnames = new Map([...hosts.values()].map((h) => [h.id, h.hostname]));
    for (const row of rows) {
      const rule = ruleFacts(row);
      if (!rule) continue;
      out.rules++;
      try {
        const conditions = await conditionsFor(rule, inputs);
        if (conditions === null) continue;
        // the backend alert resolves as soon as the backend answers: no resolve hold
        const ref =
          rule.kind === "metrics_backend_down" ? { ...rule, resolveHoldSeconds: 0 } : rule;
        const r = await reconcileRule(db, ref, conditions, now, hostnames);
        out.fired += r.fired;
        out.resolved += r.resolved;
        out.notificationsQueued += r.queued;
      } catch (e) {
        out.errors.push(`${rule.name}: ${(e as Error).message}`);
      }
    }
  }
  await db.jobState.upsert({
    where: { name: LAST_EVALUATED },
    create: { name: LAST_EVALUATED, value: now.toISOString() },
    update: { value: now.toISOString() },
  });
  return out;
}
