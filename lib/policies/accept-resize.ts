import "server-only";
import type { TeamScope } from "../auth/scope.ts";
import { ConflictError } from "../core/errors.ts";
import { db as defaultDb } from "../db.ts";
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
import { toPolicyFacts } from "./evaluate.ts";
import { executorCanResize } from "./executors/index.ts";
import { DEFAULT_WARN_DEPS } from "./warn.ts";

// Accepting a "right-size" recommendation by acting: a one-host episode of an ACTIVE idle-release
// policy the person chose whose executor can resize (./accept-episode.ts: the last warning, naming
// the from and to instance types and the $/month saved, with keep links at once; after the grace
// period, unless kept, the policy's executor resizes the host, ./resize-episode.ts). A covering
// policy whose executor cannot resize is listed apart, so the dialog can say so.

export interface ResizeOptions {
  policies: AcceptOption[];
  /** covering active policies whose executor has no resize (Tencent) */
  cannotResize: AcceptOption[];
}

export async function resizeOptions(
  hostId: string,
  scope: TeamScope,
  { client = defaultDb, now = new Date() }: AcceptOpts = {},
): Promise<ResizeOptions> {
  const h = await loadAcceptHost(client, hostId, scope, now);
  const all = await coveringPolicies(client, h);
  return {
    policies: all.filter((p) => executorCanResize(p.executor)),
    cannotResize: all.filter((p) => !executorCanResize(p.executor)),
  };
}

export interface ResizeInput {
  hostId: string;
  policyId: string;
  actor: string;
  recommendationId?: string;
  /** the instance type the recommendation was made for, and the one it proposes */
  from: string;
  to: string;
  /** the recommendation's hourly saving (micro-dollars) */
  hourlySavingMicros: bigint | null;
}

/**
 * Schedules the resize of one host under an active idle-release policy. 404 for a host or policy
 * out of reach; 409 when the policy is not an active idle-release policy covering the host, its
 * executor cannot resize, the host is no longer the recommendation's instance type, carries the
 * keep label or is not up. The host's live episode (any policy) is answered as it is.
 */
export async function scheduleResize(
  input: ResizeInput,
  scope: TeamScope,
  { client = defaultDb, now = new Date(), warn = DEFAULT_WARN_DEPS }: AcceptOpts = {},
): Promise<ScheduledEpisode> {
  const h = await loadAcceptHost(client, input.hostId, scope, now);
  const { row, p } = await acceptingPolicy(client, input.policyId, h);
  if (!executorCanResize(row.executor))
    throw new ConflictError(
      `policy "${p.name}" acts through the ${row.executor} executor, which cannot resize a host`,
    );
  const live = await liveEpisode(client, h.id);
  if (live) return describeEpisode(client, toPolicyFacts(live.policy), live, h, false);
  if (input.from === input.to) throw new ConflictError(`${h.hostname} is already ${input.to}`);
  if (h.instanceType !== input.from)
    throw new ConflictError(
      `${h.hostname} is ${h.instanceType || "of no known type"} now, not ${input.from}: the recommendation is out of date`,
    );
  checkActable(p, h);
  return openAcceptedEpisode(
    client,
    {
      p,
      h,
      actor: input.actor,
      recommendationId: input.recommendationId,
      resize: { from: input.from, to: input.to, hourlySavingMicros: input.hourlySavingMicros },
    },
    now,
    warn,
  );
}
