import "server-only";
import { reconcileRule } from "../alerts/reconcile.ts";
import type { Condition } from "../alerts/facts.ts";
import { auditData } from "../auth/audit.ts";
import { MINUTE_MS } from "../core/time.ts";
import { backoffMs } from "../notify/deliver.ts";
import type { Db } from "../db.ts";
import type { EvalHost } from "./evaluate.ts";
import { toPolicyFacts } from "./evaluate.ts";
import { ExecutorError, type Executor, type PolicyAction } from "./executors/types.ts";
import { actAt, warningsDue, type PolicyFacts } from "./policy-rules.ts";
import { resizeOf, runEpisodeAction } from "./resize-episode.ts";
import { runFacts, runTarget, type RunFacts } from "./run-target.ts";
import { sendWarning, type WarnDeps } from "./warn.ts";

// An active policy's episodes: warnings at their points (each claimed in the store before it is
// sent, so two replicas never both send it), then the action once idle for N hours, the last
// warning's grace passed and any keep over. The action is CLAIMED with one conditional update
// (state open → acting, claimUntil); only the process whose update matched calls the executor, so
// an episode is acted on once, across restarts and replicas. A process that dies mid-call leaves
// "acting" with an expired claim: another takes it over (the providers' stop and terminate are
// idempotent on a stopped instance). A failure retries with backoff; after maxAttempts the episode
// is "failed" and a `policy_action_failed` alert fires (and resolves when the episode is closed).
// A job's or pod's episode (maximum run time per run) warns its holder and ends the run through
// the executor's endRun (the signed webhook, the simulated cloud); a cloud's instance API has none.

export interface LifecycleOptions {
  executorFor: (policy: { executor: string; webhookUrl: string | null }) => Executor;
  warn: WarnDeps;
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  claimTtlMs: number;
}

export const FAILED_RULE_ID = "policy-action-failed";

type Episode = NonNullable<Awaited<ReturnType<Db["policyEpisode"]["findUnique"]>>>;

async function warnIfDue(
  db: Db,
  p: PolicyFacts,
  e: Episode,
  h: EvalHost,
  now: Date,
  o: LifecycleOptions,
) {
  const due = warningsDue(p, e, now);
  if (due <= e.warnings) return false;
  // claim the warning: only the process whose update matches sends it
  const claimed = await db.policyEpisode.updateMany({
    where: { id: e.id, state: "open", warnings: e.warnings },
    data: { warnings: due, lastWarnAt: now },
  });
  if (claimed.count !== 1) return false;
  const next = { ...e, warnings: due, lastWarnAt: now };
  const when = actAt(p, next);
  await sendWarning(
    db,
    {
      policy: p,
      host: h,
      run: runFacts(e, h),
      episodeId: e.id,
      number: due,
      of: p.warnAt.length,
      actAt: when,
      linkExpiresAt: new Date(Math.max(when.getTime(), now.getTime() + p.graceMinutes * MINUTE_MS)),
      now,
      resize: resizeOf(e, h),
    },
    o.warn,
  );
  return true;
}

async function act(
  db: Db,
  p: PolicyFacts & { executor: string; webhookUrl: string | null },
  e: Episode,
  h: EvalHost,
  now: Date,
  o: LifecycleOptions,
) {
  const claimed = await db.policyEpisode.updateMany({
    where: {
      id: e.id,
      attempts: e.attempts,
      OR: [
        { state: "open", OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] },
        { state: "acting", claimUntil: { lt: now } },
      ],
    },
    data: {
      state: "acting",
      attempts: e.attempts + 1,
      claimUntil: new Date(now.getTime() + o.claimTtlMs),
    },
  });
  if (claimed.count !== 1) return "skipped" as const;
  const attempt = e.attempts + 1;
  const resize = resizeOf(e, h);
  const action = p.action as PolicyAction;
  const target = {
    policyId: p.id,
    episodeId: e.id,
    hostId: h.id,
    hostname: h.hostname,
    provider: h.provider,
    region: h.region,
    zone: h.zone,
    instanceId: h.instanceId,
    action,
  };
  const run = e.holderKind ? runFacts(e, h) : null;
  const audit = (verb: string, detail: Record<string, unknown>) =>
    db.auditEvent.create({
      data: auditData({
        actor: "system",
        action: `policy.${verb}`,
        target: h.hostname,
        detail: {
          policyId: p.id,
          episodeId: e.id,
          action: resize ? "resize" : action,
          ...(resize ? { from: resize.from, to: resize.to } : {}),
          attempt,
          ...(run ? { run: run.label } : {}),
          ...detail,
        },
      }),
    });
  try {
    const r = e.holderKind
      ? await endRun(o.executorFor(p), p, e, h, run)
      : await runEpisodeAction(o.executorFor(p), target, resize);
    await db.policyEpisode.update({
      where: { id: e.id },
      data: {
        // a resized host keeps running: its episode ends with the resize
        ...(resize
          ? { state: "closed", action: "resize", closedAt: now, openKey: null }
          : { state: "acted", action }),
        actedAt: now,
        hourlyMicros: run ? run.hourlyMicros : h.hourlyMicros,
        claimUntil: null,
        lastError: null,
      },
    });
    await audit("act", { executor: p.executor, result: r.detail });
    return "acted" as const;
  } catch (err) {
    const message = (err as Error).message.slice(0, 500);
    const retryable = err instanceof ExecutorError ? err.retryable : true;
    const last = !retryable || attempt >= o.maxAttempts;
    await db.policyEpisode.update({
      where: { id: e.id },
      data: {
        state: last ? "failed" : "open",
        lastError: message,
        claimUntil: null,
        nextAttemptAt: last ? null : new Date(now.getTime() + backoffMs(attempt, o)),
      },
    });
    await audit(last ? "act.failed" : "act.retry", {
      executor: p.executor,
      error: message,
      retryable,
    });
    return last ? ("failed" as const) : ("retrying" as const);
  }
}

/** Ends a job's or pod's run; an executor without endRun (a cloud's API) refuses for good. */
function endRun(
  exec: Executor,
  p: PolicyFacts & { executor: string },
  e: Episode,
  h: EvalHost,
  run: RunFacts | null,
) {
  if (!run) throw new ExecutorError("the episode names no job or pod", false);
  if (!exec.endRun)
    throw new ExecutorError(`the ${p.executor} executor cannot end a ${e.holderKind}`, false);
  return exec.endRun(runTarget({ policyId: p.id, episodeId: e.id }, h, run));
}

/**
 * The failure alert: one open alert per failed episode, resolved once the episode is closed, and
 * one per scale signal that failed for good (scale-act.ts), resolved once a later signal of the
 * same pool acts or the policy is disabled.
 */
export async function reconcileFailures(db: Db, hosts: Map<string, EvalHost>, now: Date) {
  const failed = await db.policyEpisode.findMany({
    where: { state: "failed" },
    include: { policy: true },
  });
  const scaleFailed = await failedScaleSignals(db);
  if (
    failed.length === 0 &&
    scaleFailed.length === 0 &&
    (await db.alertRule.count({ where: { id: FAILED_RULE_ID } })) === 0
  )
    return;
  await db.alertRule.upsert({
    where: { id: FAILED_RULE_ID },
    create: {
      id: FAILED_RULE_ID,
      name: "Policy action failed",
      kind: "policy_action_failed",
      cooldownSeconds: 0,
    },
    update: {},
  });
  const conditions: Condition[] = failed.map((e) => {
    const h = hosts.get(e.hostId);
    const what = (h && runFacts(e, h)?.label) ?? null;
    return {
      fingerprint: `${FAILED_RULE_ID}:${e.id}`,
      severity: "critical",
      hostId: e.hostId,
      gpuUuid: null,
      team: h?.team ?? null,
      project: h?.project ?? null,
      summary: `Policy "${e.policy.name}" could not ${e.resizeTo ? `resize to ${e.resizeTo}` : e.policy.action} ${what ? `${what} on ` : ""}${h?.hostname ?? e.hostId} after ${e.attempts} attempt${e.attempts === 1 ? "" : "s"}: ${e.lastError ?? "unknown error"}`,
      details: {
        policyId: e.policyId,
        episodeId: e.id,
        attempts: e.attempts,
        lastError: e.lastError,
      },
    };
  });
  for (const f of scaleFailed) {
    conditions.push({
      fingerprint: `${FAILED_RULE_ID}:scale:${f.id}`,
      severity: "critical",
      hostId: null,
      gpuUuid: null,
      team: null,
      project: null,
      summary: `Policy "${f.policy.name}" could not scale ${f.pool} ${f.direction} to ${f.toSize} after ${f.attempts} attempt${f.attempts === 1 ? "" : "s"}: ${f.detail ?? "unknown error"}`,
      details: { policyId: f.policyId, signalId: f.id, attempts: f.attempts, lastError: f.detail },
    });
  }
  const names = new Map([...hosts.values()].map((h) => [h.id, h.hostname]));
  await reconcileRule(
    db,
    { id: FAILED_RULE_ID, kind: "policy_action_failed", cooldownSeconds: 0, resolveHoldSeconds: 0 },
    conditions,
    now,
    names,
  );
}

/** Active, enabled policies' scale signals that failed for good with no later signal that acted. */
async function failedScaleSignals(db: Db) {
  const failed = await db.policyScaleEvent.findMany({
    where: { state: "failed", mode: "active", policy: { enabled: true, mode: "active" } },
    include: { policy: true },
  });
  const open = [];
  for (const f of failed) {
    const later = await db.policyScaleEvent.count({
      where: { policyId: f.policyId, pool: f.pool, mode: f.mode, state: "acted", at: { gt: f.at } },
    });
    if (later === 0) open.push(f);
  }
  return open;
}

export interface LifecycleResult {
  warned: number;
  acted: number;
  retrying: number;
  failed: number;
}

/** Warns and acts for every active policy's open episodes. */
export async function runLifecycle(
  db: Db,
  hosts: Map<string, EvalHost>,
  now: Date,
  o: LifecycleOptions,
): Promise<LifecycleResult> {
  const res: LifecycleResult = { warned: 0, acted: 0, retrying: 0, failed: 0 };
  const episodes = await db.policyEpisode.findMany({
    where: { state: { in: ["open", "acting"] }, policy: { enabled: true, mode: "active" } },
    include: { policy: true },
  });
  for (const e of episodes) {
    const h = hosts.get(e.hostId);
    if (!h) continue;
    const p = {
      ...toPolicyFacts(e.policy),
      executor: e.policy.executor,
      webhookUrl: e.policy.webhookUrl,
    };
    if (e.state === "open" && (await warnIfDue(db, p, e, h, now, o))) {
      res.warned++;
      continue;
    }
    if (e.warnings < p.warnAt.length || now < actAt(p, e)) continue;
    const r = await act(db, p, e, h, now, o);
    if (r !== "skipped") res[r === "acted" ? "acted" : r === "failed" ? "failed" : "retrying"]++;
  }
  await reconcileFailures(db, hosts, now);
  return res;
}
