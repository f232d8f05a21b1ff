import "server-only";
import { auditData } from "../auth/audit.ts";
import { inTeamScope, type TeamScope } from "../auth/scope.ts";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { HOUR_MS } from "../core/time.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import type { Db } from "../db.ts";
import type { MetricsSource } from "../metrics/source.ts";
import { loadEvalHosts, toPolicyFacts, type EvalHost } from "./evaluate.ts";
import { resizeOf } from "./resize-episode.ts";
import { actAt, hostInPolicyScope, optedOut, type PolicyFacts } from "./policy-rules.ts";
import { sendWarning, warnRecipients, type Recipient, type WarnDeps } from "./warn.ts";

// What accepting a recommendation by acting shares, whether it releases an idle host
// (./accept-release.ts) or right-sizes one (./accept-resize.ts): the host in the caller's scope,
// the active idle-release policies that cover it, the host's live episode (accepting again answers
// it), and opening a one-host episode of the chosen policy dated so its whole warning schedule is
// due: its last warning (with keep links) goes to the owner and holders at once, audited, and the
// policy's lifecycle (./lifecycle.ts) acts after the grace period unless a keep link is used, with
// the same act-once claim, retries and audit. One live episode per host.

export interface AcceptOpts {
  client?: Db;
  now?: Date;
  metrics?: MetricsSource;
  warn?: WarnDeps;
}

export interface AcceptOption {
  id: string;
  name: string;
  action: string;
  graceMinutes: number;
  executor: string;
}

type PolicyRow = NonNullable<Awaited<ReturnType<Db["policy"]["findUnique"]>>>;
type Episode = NonNullable<Awaited<ReturnType<Db["policyEpisode"]["findFirst"]>>>;

export async function loadAcceptHost(client: Db, hostId: string, scope: TeamScope, now: Date) {
  const h = (await loadEvalHosts(client, now)).get(hostId);
  if (!h || !inTeamScope(scope, h.team)) throw new NotFoundError(`host ${hostId}`);
  return h;
}

const toOption = (p: PolicyRow): AcceptOption => ({
  id: p.id,
  name: p.name,
  action: p.action,
  graceMinutes: p.graceMinutes,
  executor: p.executor,
});

/** The enabled, active idle-release policies whose scope covers the host, by name. */
export async function coveringPolicies(client: Db, h: EvalHost): Promise<AcceptOption[]> {
  const rows = await client.policy.findMany({
    where: { enabled: true, mode: "active", kind: "idle_release" },
    orderBy: { name: "asc" },
  });
  return rows.filter((p) => hostInPolicyScope(toPolicyFacts(p), h)).map(toOption);
}

/** The chosen policy: 404 when it does not exist, 409 when it cannot act on this host. */
export async function acceptingPolicy(client: Db, policyId: string, h: EvalHost) {
  const row = await client.policy.findUnique({ where: { id: policyId } });
  if (!row) throw new NotFoundError(`policy ${policyId}`);
  const p = toPolicyFacts(row);
  if (p.kind !== "idle_release") throw new ConflictError(`policy "${p.name}" is not idle release`);
  if (!row.enabled || p.mode !== "active")
    throw new ConflictError(`policy "${p.name}" is not active (enable it in settings)`);
  if (!hostInPolicyScope(p, h))
    throw new ConflictError(`policy "${p.name}" does not cover ${h.hostname}`);
  return { row, p };
}

/** The host's live episode under any policy (a dry-run policy's open episode only lists). */
export function liveEpisode(client: Db, hostId: string) {
  return client.policyEpisode.findFirst({
    where: {
      hostId,
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
}

/** The keep label and a host that is not up (or about to be reclaimed) refuse any accept. */
export function checkActable(p: PolicyFacts, h: EvalHost) {
  if (optedOut(p, h))
    throw new ConflictError(`${h.hostname} carries the keep label ${p.optOutLabel}`);
  if (h.interruptionPending || h.state !== "up")
    throw new ConflictError(`${h.hostname} is not up (${h.state})`);
}

export interface ScheduledEpisode {
  episodeId: string;
  policyId: string;
  policyName: string;
  hostname: string;
  /** stop | terminate | resize */
  action: string;
  state: string;
  actAt: string;
  keepUntil: string | null;
  recipients: Recipient[];
  /** resize only: from and to instance types, and the saving per month (micro-dollars) */
  resize: { from: string; to: string; monthlySavingMicros: string | null } | null;
  /** false when the accept found the host's live episode and changed nothing */
  created: boolean;
}

export async function describeEpisode(
  client: Db,
  p: PolicyFacts,
  e: Episode,
  h: EvalHost,
  created: boolean,
): Promise<ScheduledEpisode> {
  const resize = resizeOf(e, h);
  return {
    episodeId: e.id,
    policyId: p.id,
    policyName: p.name,
    hostname: h.hostname,
    action: resize ? "resize" : p.action,
    state: e.state,
    actAt: actAt(p, e).toISOString(),
    keepUntil: e.keepUntil?.toISOString() ?? null,
    recipients: await warnRecipients(client, h),
    resize: resize && {
      from: resize.from,
      to: resize.to,
      monthlySavingMicros: resize.monthlySavingMicros?.toString() ?? null,
    },
    created,
  };
}

export interface OpenInput {
  p: PolicyFacts;
  h: EvalHost;
  actor: string;
  recommendationId: string | undefined;
  /** resize only: the episode's resizeTo / resizeFrom / resizeSavingMicros */
  resize?: { to: string; from: string; hourlySavingMicros: bigint | null };
}

/**
 * Opens the chosen policy's episode for the host, its warnings counted as sent now, audits the
 * accept (`policy.accept`) and sends the last warning. A concurrent accept (or the policy's own
 * tick) that opened it first wins: its episode is answered with created false.
 */
export async function openAcceptedEpisode(
  client: Db,
  input: OpenInput,
  now: Date,
  warn: WarnDeps,
): Promise<ScheduledEpisode> {
  const { p, h } = input;
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
        ...(input.resize
          ? {
              resizeTo: input.resize.to,
              resizeFrom: input.resize.from,
              resizeSavingMicros: input.resize.hourlySavingMicros,
            }
          : {}),
      },
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const other = await client.policyEpisode.findUniqueOrThrow({
      where: { openKey: `${p.id}:${h.id}` },
    });
    return describeEpisode(client, p, other, h, false);
  }
  const when = actAt(p, episode);
  const resize = resizeOf(episode, h);
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
        action: resize ? "resize" : p.action,
        ...(resize ? { from: resize.from, to: resize.to } : {}),
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
      resize,
    },
    warn,
  );
  return describeEpisode(client, p, episode, h, true);
}
