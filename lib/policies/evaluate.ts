import "server-only";
import { pushTo } from "../core/group.ts";
import { HOUR_MS, MINUTE_MS } from "../core/time.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { parseLabels } from "../core/labels.ts";
import type { Db } from "../db.ts";
import { LIVE_HOSTS } from "../ingest/host-state.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import type { TickContext } from "../tick/context.ts";
import { whollyIdleHosts } from "./idle-hosts.ts";
import { runtimeCondition, type EpisodeCondition } from "./runtime.ts";
import {
  hostInPolicyScope,
  optedOut,
  parseWarnAt,
  type HostScopeFacts,
  type PolicyFacts,
} from "./policy-rules.ts";

// One pass over the enabled policies: an idle-release episode opens for each host in scope whose
// every GPU is idle now (backdated to when the idleness began, as far as the policy's windows
// show), and closes when a GPU works again; a maximum-run-time episode opens for each host in
// scope that is up (dated from its run's start, ./runtime.ts) and closes when the run ends. Either
// closes when the host opts out, leaves the scope, or a spot reclaim is announced (a reclaim is
// not idleness, and ends the run). A host the policy stopped keeps its episode ("acted")
// until it answers again, and no other policy lists or acts on it meanwhile. Active policies then warn and act (./lifecycle.ts).

/** The window that decides "idle now". */
export const NOW_WINDOW_MS = 30 * MINUTE_MS;

export interface EvalHost extends HostScopeFacts {
  id: string;
  hostname: string;
  owner: string | null;
  state: string;
  lastSeen: Date | null;
  interruptionPending: boolean;
  provider: string;
  region: string;
  zone: string | null;
  instanceId: string | null;
  instanceType: string;
  hourlyMicros: bigint | null;
  gpus: string[];
}

export function toPolicyFacts(row: {
  id: string;
  name: string;
  kind: string;
  mode: string;
  action: string;
  idleHours: number;
  warnAt: string;
  graceMinutes: number;
  scopeKind: string;
  scopeValue: string;
  optOutLabel: string;
  target?: string;
}): PolicyFacts {
  return { ...row, warnAt: parseWarnAt(row.warnAt) };
}

export async function loadEvalHosts(db: Db, now: Date): Promise<Map<string, EvalHost>> {
  const [hosts, gpus, prices] = await Promise.all([
    db.host.findMany({ where: LIVE_HOSTS }),
    db.gpu.findMany({ where: { parentUuid: null }, select: { uuid: true, hostId: true } }),
    loadPriceRows(db),
  ]);
  const byHost = new Map<string, string[]>();
  for (const g of gpus) pushTo(byHost, g.hostId, g.uuid);
  const out = new Map<string, EvalHost>();
  for (const h of hosts) {
    const price = lookupPrice(prices, { ...h, at: now });
    out.set(h.id, {
      id: h.id,
      hostname: h.hostname,
      owner: h.owner,
      team: h.team,
      project: h.project,
      labels: parseLabels(h.labels),
      state: h.state,
      lastSeen: h.lastSeen,
      interruptionPending: h.interruptionPending,
      provider: h.provider,
      region: h.region,
      zone: h.zone,
      instanceId: h.instanceId,
      instanceType: h.instanceType,
      hourlyMicros: price.priced ? price.usdPerHourMicros : null,
      gpus: byHost.get(h.id) ?? [],
    });
  }
  return out;
}

/** A spot reclaim (pending or under way) is not idleness. */
function spotInterrupted(h: EvalHost): boolean {
  return h.interruptionPending || h.state === "interrupted";
}

async function idleOver(ctx: TickContext, hosts: Map<string, EvalHost>, ms: number) {
  const stats = await ctx.metrics.gpuWindow(new Date(ctx.now.getTime() - ms), ctx.now);
  const gpus = new Map([...hosts.values()].map((h) => [h.id, h.gpus]));
  return whollyIdleHosts(stats, gpus);
}

/** When the host's idleness began: the longest of the policy's windows it was idle over. */
async function idleSince(
  ctx: TickContext,
  hosts: Map<string, EvalHost>,
  p: PolicyFacts,
  hostId: string,
  cache: Map<number, Promise<Set<string>>>,
): Promise<Date> {
  const windows = [1, ...[...p.warnAt].reverse()].map((f) => Math.round(f * p.idleHours * HOUR_MS));
  for (const ms of windows) {
    if (ms <= NOW_WINDOW_MS) break;
    let set = cache.get(ms);
    if (!set) cache.set(ms, (set = idleOver(ctx, hosts, ms)));
    if ((await set).has(hostId)) return new Date(ctx.now.getTime() - ms);
  }
  return new Date(ctx.now.getTime() - NOW_WINDOW_MS);
}

export interface EvalResult {
  opened: number;
  closed: number;
  resumed: number;
}

/** Idle release: every GPU idle over the last NOW_WINDOW_MS; backdated by the policy's windows. */
function idleCondition(
  ctx: TickContext,
  hosts: Map<string, EvalHost>,
  p: PolicyFacts,
  idleNow: Set<string>,
  cache: Map<number, Promise<Set<string>>>,
): EpisodeCondition {
  return {
    holds: idleNow,
    stillHolds: async () => true,
    since: (hostId) => idleSince(ctx, hosts, p, hostId, cache),
  };
}

/** Opens and closes the episodes of every enabled policy (each by its kind) for this tick. */
export async function trackEpisodes(
  ctx: TickContext,
  hosts: Map<string, EvalHost>,
): Promise<EvalResult> {
  const { db, now } = ctx;
  const res: EvalResult = { opened: 0, closed: 0, resumed: 0 };
  // a job's or pod's maximum run time is tracked per run (./run-episodes.ts)
  const policies = (
    await db.policy.findMany({ where: { enabled: true, kind: { not: "scale" }, target: "host" } })
  ).map(toPolicyFacts);
  const idleNow = policies.some((p) => p.kind === "idle_release")
    ? await idleOver(ctx, hosts, NOW_WINDOW_MS)
    : new Set<string>();
  const up = new Set([...hosts.values()].filter((h) => h.state === "up").map((h) => h.id));
  const cache = new Map<number, Promise<Set<string>>>();
  // a host one policy stopped (or is resizing) is not idle for the others: they neither list nor
  // act on it
  const stopped = new Set(
    (
      await db.policyEpisode.findMany({
        where: {
          holderKind: null,
          OR: [{ state: "acted" }, { resizeTo: { not: null }, state: { not: "closed" } }],
        },
        select: { hostId: true },
      })
    ).map((e) => e.hostId),
  );
  for (const p of policies) {
    const cond =
      p.kind === "max_runtime"
        ? runtimeCondition(db, up, now)
        : idleCondition(ctx, hosts, p, idleNow, cache);
    const live = await db.policyEpisode.findMany({
      where: { policyId: p.id, state: { not: "closed" }, holderKind: null },
    });
    const byHost = new Map(live.map((e) => [e.hostId, e]));
    for (const e of live) {
      const h = hosts.get(e.hostId);
      if (e.state === "acted") {
        // a stopped host that answers again was started: its episode (and its savings) end
        if (h && h.state === "up" && h.lastSeen && e.actedAt && h.lastSeen > e.actedAt) {
          await db.policyEpisode.update({
            where: { id: e.id },
            data: { state: "closed", resumedAt: h.lastSeen, closedAt: now, openKey: null },
          });
          res.resumed++;
        }
        continue;
      }
      // open, or failed (its alert stays until the condition no longer holds here)
      if (e.state !== "open" && e.state !== "failed") continue;
      // a right-size accepted from a recommendation does not wait on idleness
      // (./resize-episode.ts): it (and a failed one's alert) ends when it acts, the host is
      // resized some other way, leaves, opts out or is reclaimed
      const keep =
        h &&
        (e.resizeTo !== null
          ? h.instanceType === (e.resizeFrom ?? h.instanceType)
          : cond.holds.has(h.id) && !stopped.has(h.id)) &&
        hostInPolicyScope(p, h) &&
        !optedOut(p, h) &&
        !spotInterrupted(h) &&
        (await cond.stillHolds(h.id, e.idleSince));
      if (keep) continue;
      // conditional: a process acting on this episode right now keeps it
      const n = await db.policyEpisode.updateMany({
        where: { id: e.id, state: e.state },
        data: { state: "closed", closedAt: now, openKey: null },
      });
      res.closed += n.count;
    }
    for (const hostId of cond.holds) {
      const h = hosts.get(hostId);
      if (!h || byHost.has(hostId) || stopped.has(hostId)) continue;
      if (!hostInPolicyScope(p, h) || optedOut(p, h) || spotInterrupted(h)) continue;
      try {
        await db.policyEpisode.create({
          data: {
            policyId: p.id,
            hostId,
            idleSince: await cond.since(hostId),
            openKey: `${p.id}:${hostId}`,
          },
        });
        res.opened++;
      } catch (e) {
        // another replica opened it first
        if (!isUniqueViolation(e)) throw e;
      }
    }
  }
  return res;
}
