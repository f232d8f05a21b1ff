import "server-only";
import { parseHolder, type Holder } from "../core/holders.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { HOUR_MS, MINUTE_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import type { TickContext } from "../tick/context.ts";
import type { EvalHost, EvalResult } from "./evaluate.ts";
import { toPolicyFacts } from "./evaluate.ts";
import {
  detectRuns,
  RUN_GAP_MINUTES,
  runId,
  searchStart,
  type HolderRun,
  type StartSearch,
} from "./holder-runs.ts";
import { hostInPolicyScope, optedOut, type PolicyFacts } from "./policy-rules.ts";

// Maximum run time per Slurm job or Kubernetes pod (policy target job | pod): one episode per
// (policy, host, run), its `idleSince` the run's start (./holder-runs.ts). Each tick reads the last
// RECENT_MS of holder minutes (MetricsSource.hourSamples: the store's GpuMinute.holders, or the
// Prometheus holder series); a run first met there without a break before it is looked for further
// back, 6 h at a time, up to the policy's hours and a day more (older: already past its limit). An
// episode closes when its run ends, the host stops answering (state not up), leaves the scope, opts
// out (the host label), or a spot reclaim is announced; an acted one when its run is gone. A host
// another policy stopped has no runs to act on. Warnings and the action: ./lifecycle.ts.

/** The window read every tick. */
export const RECENT_MS = 30 * MINUTE_MS;
const CHUNK_MS = 6 * HOUR_MS;
/** how stale an episode's "last seen" may grow before a tick writes it again */
const STALE_MS = 10 * MINUTE_MS;

type Episode = NonNullable<Awaited<ReturnType<Db["policyEpisode"]["findUnique"]>>>;

/** The holder a run's episode names (null for a host's episode or malformed JSON). */
export function episodeHolder(e: { holder: string | null }): Holder | null {
  if (!e.holder) return null;
  try {
    return parseHolder(JSON.parse(e.holder));
  } catch {
    return null;
  }
}

function openKey(policyId: string, hostId: string, id: string): string {
  return `${policyId}:${hostId}:${id}`;
}

interface Pending {
  policy: PolicyFacts;
  host: EvalHost;
  run: HolderRun;
}

/** Looks back for the starts of runs already holding when the recent window begins. */
async function lookBack(ctx: TickContext, pending: Pending[], hours: number) {
  const search = new Map<string, { hostId: string; id: string; s: StartSearch }>();
  for (const { host, run } of pending) {
    if (run.startKnown) continue;
    search.set(`${host.id}|${run.id}`, {
      hostId: host.id,
      id: run.id,
      s: { earliest: run.start, absent: 0, found: false },
    });
  }
  const limit = ctx.now.getTime() - hours * HOUR_MS - 24 * HOUR_MS;
  let to = ctx.now.getTime() - RECENT_MS;
  while (to > limit && [...search.values()].some((x) => !x.s.found)) {
    const from = Math.max(limit, to - CHUNK_MS);
    const chunk = await ctx.metrics.hourSamples(new Date(from), new Date(to), 60);
    for (const x of search.values()) x.s = searchStart(chunk.get(x.hostId) ?? [], x.id, x.s);
    to = from;
  }
  return (hostId: string, run: HolderRun) =>
    search.get(`${hostId}|${run.id}`)?.s.earliest ?? run.start;
}

function eligible(p: PolicyFacts, h: EvalHost | undefined, stopped: ReadonlySet<string>) {
  return (
    h !== undefined &&
    h.state === "up" &&
    !h.interruptionPending &&
    !stopped.has(h.id) &&
    hostInPolicyScope(p, h) &&
    !optedOut(p, h)
  );
}

/** Opens and closes the job and pod episodes of every enabled max_runtime policy for this tick. */
export async function trackRunEpisodes(
  ctx: TickContext,
  hosts: Map<string, EvalHost>,
): Promise<EvalResult> {
  const { db, now } = ctx;
  const res: EvalResult = { opened: 0, closed: 0, resumed: 0 };
  const policies = (
    await db.policy.findMany({
      where: { enabled: true, kind: "max_runtime", target: { in: ["job", "pod"] } },
    })
  ).map((row) => ({ ...toPolicyFacts(row), target: row.target }));
  if (policies.length === 0) return res;
  const samples = await ctx.metrics.hourSamples(new Date(now.getTime() - RECENT_MS), now, 60);
  const runs = new Map<string, HolderRun[]>();
  const answered = new Map<string, number>();
  for (const [hostId, list] of samples) {
    runs.set(hostId, detectRuns(list));
    answered.set(hostId, list.filter((s) => s.up).length);
  }
  const stopped = new Set(
    (
      await db.policyEpisode.findMany({
        where: { state: "acted", holderKind: null },
        select: { hostId: true },
      })
    ).map((e) => e.hostId),
  );
  const pending: Pending[] = [];
  for (const p of policies) {
    const live = await db.policyEpisode.findMany({
      where: { policyId: p.id, state: { not: "closed" }, holderKind: { not: null } },
    });
    const taken = new Set<string>();
    for (const e of live) {
      const holder = episodeHolder(e);
      const id = holder ? runId(holder) : "";
      const h = hosts.get(e.hostId);
      const mine = (runs.get(e.hostId) ?? []).filter(
        (r) => r.id === id && r.lastSeen >= e.idleSince,
      );
      const current = mine.find((r) => r.live);
      const gone =
        !holder ||
        h?.state !== "up" ||
        mine.some((r) => !r.live) ||
        (!current && (answered.get(e.hostId) ?? 0) >= RUN_GAP_MINUTES);
      if (e.state === "acting" || (e.state === "acted" && !gone)) {
        taken.add(openKey(p.id, e.hostId, id));
        continue;
      }
      const keep =
        !gone && e.state !== "acted" && e.holderKind === p.target && eligible(p, h, stopped);
      if (keep) {
        taken.add(openKey(p.id, e.hostId, id));
        if (current) await refresh(db, e, current);
        continue;
      }
      // conditional: a process acting on this episode right now keeps it
      const n = await db.policyEpisode.updateMany({
        where: { id: e.id, state: e.state },
        data: { state: "closed", closedAt: now, openKey: null },
      });
      res.closed += n.count;
    }
    for (const [hostId, list] of runs) {
      const h = hosts.get(hostId);
      if (!h || !eligible(p, h, stopped)) continue;
      for (const run of list) {
        if (!run.live || run.kind !== p.target || taken.has(openKey(p.id, hostId, run.id)))
          continue;
        pending.push({ policy: p, host: h, run });
      }
    }
  }
  if (pending.length === 0) return res;
  const startOf = await lookBack(ctx, pending, Math.max(...policies.map((p) => p.idleHours)));
  for (const { policy, host, run } of pending) {
    try {
      await db.policyEpisode.create({
        data: {
          policyId: policy.id,
          hostId: host.id,
          idleSince: startOf(host.id, run),
          openKey: openKey(policy.id, host.id, run.id),
          holderKind: run.kind,
          holder: JSON.stringify(run.holder),
          holderGpus: run.gpus,
          lastSeenAt: run.lastSeen,
        },
      });
      res.opened++;
    } catch (e) {
      // another replica opened it first
      if (!isUniqueViolation(e)) throw e;
    }
  }
  return res;
}

/** What the run looks like now: its GPUs and holder (a uid may have resolved to a name). */
async function refresh(db: Db, e: Episode, run: HolderRun) {
  const holder = JSON.stringify(run.holder);
  const fresh = e.lastSeenAt && run.lastSeen.getTime() - e.lastSeenAt.getTime() < STALE_MS;
  if (e.holder === holder && e.holderGpus === run.gpus && fresh) return;
  await db.policyEpisode.update({
    where: { id: e.id },
    data: { holder, holderGpus: run.gpus, lastSeenAt: run.lastSeen },
  });
}
