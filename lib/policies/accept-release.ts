import "server-only";
import { auditData } from "../auth/audit.ts";
import { inTeamScope, type TeamScope } from "../auth/scope.ts";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { HOUR_MS } from "../core/time.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { getMetricsSource } from "../metrics/index.ts";
import type { MetricsSource } from "../metrics/source.ts";
import { loadEvalHosts, NOW_WINDOW_MS, toPolicyFacts, type EvalHost } from "./evaluate.ts";
import { whollyIdleHosts } from "./idle-hosts.ts";
import { actAt, hostInPolicyScope, optedOut, type PolicyFacts } from "./policy-rules.ts";
import { DEFAULT_WARN_DEPS, sendWarning, warnRecipients, type Recipient } from "./warn.ts";
import type { WarnDeps } from "./warn.ts";

// Accepting an "idle host" recommendation with "release it": a one-host episode of an ACTIVE
// idle-release policy the person chose, its clock started now. The episode is dated so that the
// policy's whole warning schedule is due: its last warning (with keep links) goes to the owner and
// holders at once, and the policy's lifecycle (./lifecycle.ts) acts after the grace period unless
// a keep link is used, with the same act-once claim, retries and audit. One live episode per host:
// accepting again (or a host a policy already tracks) returns the episode that exists.

export interface ReleaseOption {
  id: string;
  name: string;
  action: string;
  graceMinutes: number;
  executor: string;
}

interface Opts {
  client?: Db;
  now?: Date;
  metrics?: MetricsSource;
  warn?: WarnDeps;
}

async function loadHost(client: Db, hostId: string, scope: TeamScope, now: Date) {
  const h = (await loadEvalHosts(client, now)).get(hostId);
  if (!h || !inTeamScope(scope, h.team)) throw new NotFoundError(`host ${hostId}`);
  return h;
}

/** The enabled, active idle-release policies whose scope covers the host. */
export async function releaseOptions(
  hostId: string,
  scope: TeamScope,
  { client = defaultDb, now = new Date() }: Opts = {},
): Promise<{ policies: ReleaseOption[] }> {
  const h = await loadHost(client, hostId, scope, now);
  const rows = await client.policy.findMany({
    where: { enabled: true, mode: "active", kind: "idle_release" },
    orderBy: { name: "asc" },
  });
  const policies = rows
    .filter((p) => hostInPolicyScope(toPolicyFacts(p), h))
    .map((p) => ({
      id: p.id,
      name: p.name,
      action: p.action,
      graceMinutes: p.graceMinutes,
      executor: p.executor,
    }));
  return { policies };
}

export interface ScheduledRelease {
  episodeId: string;
  policyId: string;
  policyName: string;
  hostname: string;
  action: string;
  state: string;
  actAt: string;
  keepUntil: string | null;
  recipients: Recipient[];
  /** false when the accept found the host's live episode and changed nothing */
  created: boolean;
}

async function isWhollyIdle(metrics: MetricsSource, h: EvalHost, now: Date): Promise<boolean> {
  const stats = await metrics.gpuWindow(new Date(now.getTime() - NOW_WINDOW_MS), now);
  return whollyIdleHosts(stats, new Map([[h.id, h.gpus]])).has(h.id);
}

type Episode = NonNullable<Awaited<ReturnType<Db["policyEpisode"]["findFirst"]>>>;

async function describe(
  client: Db,
  p: PolicyFacts,
  e: Episode,
  h: EvalHost,
  created: boolean,
): Promise<ScheduledRelease> {
  return {
    episodeId: e.id,
    policyId: p.id,
    policyName: p.name,
    hostname: h.hostname,
    action: p.action,
    state: e.state,
    actAt: actAt(p, e).toISOString(),
    keepUntil: e.keepUntil?.toISOString() ?? null,
    recipients: await warnRecipients(client, h),
    created,
  };
}

/**
 * Schedules the release of one wholly idle host under an active idle-release policy. 404 for a
 * host or policy out of reach; 409 when the policy is not an active idle-release policy covering
 * the host, the host carries the policy's keep label, or not every GPU is idle now.
 */
export async function scheduleRelease(
  input: { hostId: string; policyId: string; actor: string; recommendationId?: string },
  scope: TeamScope,
  {
    client = defaultDb,
    now = new Date(),
    metrics = getMetricsSource(),
    warn = DEFAULT_WARN_DEPS,
  }: Opts = {},
): Promise<ScheduledRelease> {
  const h = await loadHost(client, input.hostId, scope, now);
  const row = await client.policy.findUnique({ where: { id: input.policyId } });
  if (!row) throw new NotFoundError(`policy ${input.policyId}`);
  const p = toPolicyFacts(row);
  if (p.kind !== "idle_release") throw new ConflictError(`policy "${p.name}" is not idle release`);
  if (!row.enabled || p.mode !== "active")
    throw new ConflictError(`policy "${p.name}" is not active (enable it in settings)`);
  if (!hostInPolicyScope(p, h))
    throw new ConflictError(`policy "${p.name}" does not cover ${h.hostname}`);

  // the host's live episode, under any policy: accepting again changes nothing
  // (a dry-run policy's open episode only lists; it does not count)
  const live = await client.policyEpisode.findFirst({
    where: {
      hostId: h.id,
      // a job's or pod's run on the host is not the host's episode
      holderKind: null,
      OR: [
        { state: { in: ["acting", "acted", "failed"] } },
        { state: "open", policy: { enabled: true, mode: "active" } },
      ],
    },
    include: { policy: true },
    orderBy: { createdAt: "asc" },
  });
  if (live) return describe(client, toPolicyFacts(live.policy), live, h, false);

  if (optedOut(p, h))
    throw new ConflictError(`${h.hostname} carries the keep label ${p.optOutLabel}`);
  if (h.interruptionPending || h.state !== "up")
    throw new ConflictError(`${h.hostname} is not up (${h.state})`);
  if (!(await isWhollyIdle(metrics, h, now)))
    throw new ConflictError(`not every GPU of ${h.hostname} is idle now: it is not released`);

  // dated so the whole warning schedule is due now: the last warning goes out with this accept
  const idleSince = new Date(now.getTime() - p.idleHours * HOUR_MS);
  let episode: Episode;
  try {
    episode = await client.policyEpisode.create({
      data: {
        policyId: p.id,
        hostId: h.id,
        idleSince,
        warnings: p.warnAt.length,
        lastWarnAt: now,
        openKey: `${p.id}:${h.id}`,
      },
    });
  } catch (e) {
    // a concurrent accept (or the policy's tick) opened it first
    if (!isUniqueViolation(e)) throw e;
    const other = await client.policyEpisode.findUniqueOrThrow({
      where: { openKey: `${p.id}:${h.id}` },
    });
    return describe(client, p, other, h, false);
  }
  const when = actAt(p, episode);
  await client.auditEvent.create({
    data: auditData({
      actor: input.actor,
      action: "policy.accept",
      target: h.hostname,
      detail: {
        policyId: p.id,
        episodeId: episode.id,
        hostId: h.id,
        recommendationId: input.recommendationId ?? null,
        action: p.action,
        actAt: when.toISOString(),
      },
    }),
  });
  await sendWarning(
    client,
    {
      policy: p,
      host: h,
      episodeId: episode.id,
      number: p.warnAt.length,
      of: p.warnAt.length,
      actAt: when,
      linkExpiresAt: when,
      now,
    },
    warn,
  );
  return describe(client, p, episode, h, true);
}
