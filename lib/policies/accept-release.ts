import "server-only";
import type { TeamScope } from "../auth/scope.ts";
import { ConflictError } from "../core/errors.ts";
import { db as defaultDb } from "../db.ts";
import { getMetricsSource } from "../metrics/index.ts";
import type { MetricsSource } from "../metrics/source.ts";
import {
  acceptingPolicy,
  checkActable,
  coveringPolicies,
  describeEpisode,
  liveEpisode,
  loadAcceptHost,
  openAcceptedEpisode,
  type AcceptOpts,
  type AcceptOption,
  type ScheduledEpisode,
} from "./accept-episode.ts";
import { NOW_WINDOW_MS, toPolicyFacts, type EvalHost } from "./evaluate.ts";
import { whollyIdleHosts } from "./idle-hosts.ts";
import { DEFAULT_WARN_DEPS } from "./warn.ts";

// Accepting an "idle host" recommendation with "release it": a one-host episode of an ACTIVE
// idle-release policy the person chose, its clock started now (./accept-episode.ts: the last
// warning with keep links at once, the policy's stop or terminate after the grace period unless
// kept). Only a host whose every GPU is idle now is released.

export type ReleaseOption = AcceptOption;
export type ScheduledRelease = ScheduledEpisode;

/** The enabled, active idle-release policies whose scope covers the host. */
export async function releaseOptions(
  hostId: string,
  scope: TeamScope,
  { client = defaultDb, now = new Date() }: AcceptOpts = {},
): Promise<{ policies: ReleaseOption[] }> {
  const h = await loadAcceptHost(client, hostId, scope, now);
  return { policies: await coveringPolicies(client, h) };
}

async function isWhollyIdle(metrics: MetricsSource, h: EvalHost, now: Date): Promise<boolean> {
  const stats = await metrics.gpuWindow(new Date(now.getTime() - NOW_WINDOW_MS), now);
  return whollyIdleHosts(stats, new Map([[h.id, h.gpus]])).has(h.id);
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
  }: AcceptOpts = {},
): Promise<ScheduledRelease> {
  const h = await loadAcceptHost(client, input.hostId, scope, now);
  const { p } = await acceptingPolicy(client, input.policyId, h);
  // the host's live episode, under any policy: accepting again changes nothing
  const live = await liveEpisode(client, h.id);
  if (live) return describeEpisode(client, toPolicyFacts(live.policy), live, h, false);
  checkActable(p, h);
  if (!(await isWhollyIdle(metrics, h, now)))
    throw new ConflictError(`not every GPU of ${h.hostname} is idle now: it is not released`);
  return openAcceptedEpisode(
    client,
    { p, h, actor: input.actor, recommendationId: input.recommendationId },
    now,
    warn,
  );
}
