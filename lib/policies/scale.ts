import "server-only";
import type { TeamScope } from "../auth/scope.ts";
import { pushTo } from "../core/group.ts";
import { MINUTE_MS } from "../core/time.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { poolShareAbove, type GpuShareAbove } from "../metrics/source.ts";
import type { TickContext } from "../tick/context.ts";
import type { ScaleSignalDto } from "../zod/schemas/policy.ts";
import { toPolicyFacts, type EvalHost } from "./evaluate.ts";
import type { Executor, ScaleTarget } from "./executors/types.ts";
import { callScale, claimScaleRetry, type ScaleOutcome, type ScaleRetry } from "./scale-act.ts";
import { hostInPolicyScope, optedOut } from "./policy-rules.ts";
import { decideScale, parseScale, poolOf, type Pool } from "./scale-rules.ts";
import { policyInScope } from "./store.ts";

// Scale policies (kind "scale"): each tick, the up hosts in a policy's scope are grouped into pools
// (./scale-rules.ts), each pool's share of GPU time past the marks is read from the metrics source
// (gpuShareAbove, poolShareAbove) and a signal is recorded when it fires. Dry run only records it
// (the settings page lists it with the pool's figures); active calls the executor's `scale` with
// the desired size and audits it. The signal is claimed by a unique key naming the signal before
// it (`<policy>:<pool>:<mode>:<previous signal id>`), so two replicas never both fire the same step; the
// cool-down counts from the newest signal of the same mode.

export const SCALE_SIGNAL_STATES = ["recorded", "acted", "retrying", "failed"] as const;

export interface ScaleResult {
  signals: number;
  scaled: number;
  /** calls that failed and will be tried again (scale-act.ts) */
  scaleRetrying: number;
  scaleFailed: number;
}

/** Share per host id at or above a threshold over the last `minutes`: one read per window. */
async function shares(ctx: TickContext, minutes: number, threshold: number) {
  const rows = await ctx.metrics.gpuShareAbove(
    new Date(ctx.now.getTime() - minutes * MINUTE_MS),
    ctx.now,
    threshold,
  );
  const byHost = new Map<string, GpuShareAbove[]>();
  for (const r of rows) pushTo(byHost, r.hostId, r);
  return byHost;
}

export async function runScalePolicies(
  ctx: TickContext,
  hosts: Map<string, EvalHost>,
  executorFor: (p: { executor: string; webhookUrl: string | null }) => Executor,
  retry: ScaleRetry,
): Promise<ScaleResult> {
  const { db, now } = ctx;
  const res: ScaleResult = { signals: 0, scaled: 0, scaleRetrying: 0, scaleFailed: 0 };
  const tally = (o: ScaleOutcome) =>
    o === "acted" ? res.scaled++ : o === "retrying" ? res.scaleRetrying++ : res.scaleFailed++;
  const policies = await db.policy.findMany({ where: { enabled: true, kind: "scale" } });
  for (const p of policies) {
    const s = parseScale(p.scale);
    if (!s) continue;
    const facts = toPolicyFacts(p);
    const pools = new Map<string, { pool: Pool; hosts: EvalHost[] }>();
    for (const h of hosts.values()) {
      if (h.state !== "up" || !hostInPolicyScope(facts, h) || optedOut(facts, h)) continue;
      const pool = poolOf(h);
      const entry = pools.get(pool.key) ?? { pool, hosts: [] };
      entry.hosts.push(h);
      pools.set(pool.key, entry);
    }
    if (pools.size === 0) continue;
    // "at or above" the high mark: the source counts readings strictly above its threshold
    const [high, aboveLow] = await Promise.all([
      shares(ctx, s.highMinutes, s.highMark - 1e-9),
      shares(ctx, s.lowMinutes, s.lowMark),
    ]);
    for (const { pool, hosts: members } of pools.values()) {
      const target = (sig: { id: string; direction: string; fromSize: number; toSize: number }) =>
        targetOf(p.id, sig, pool, members);
      // a call being retried holds its pool: no new signal until it acted or failed for good
      const pending = await db.policyScaleEvent.findFirst({
        where: { policyId: p.id, pool: pool.key, mode: p.mode, state: "retrying" },
        orderBy: { at: "desc" },
      });
      if (pending) {
        if (p.mode === "active" && (await claimScaleRetry(db, pending, now, retry)))
          tally(await callScale(db, p, pending, target(pending), executorFor(p), now, retry));
        continue;
      }
      const last = await db.policyScaleEvent.findFirst({
        where: { policyId: p.id, pool: pool.key, mode: p.mode },
        orderBy: { at: "desc" },
      });
      const gpus = (m: Map<string, GpuShareAbove[]>) => members.flatMap((h) => m.get(h.id) ?? []);
      const d = decideScale(
        s,
        {
          size: members.length,
          highShare: poolShareAbove(gpus(high)),
          aboveLowShare: poolShareAbove(gpus(aboveLow)),
        },
        last?.at ?? null,
        now,
      );
      if (!d) continue;
      let signal;
      try {
        signal = await db.policyScaleEvent.create({
          data: {
            policyId: p.id,
            pool: pool.key,
            mode: p.mode,
            ...d,
            hosts: members.length,
            state: "recorded",
            at: now,
            claimKey: `${p.id}:${pool.key}:${p.mode}:${last?.id ?? "first"}`,
          },
        });
      } catch (e) {
        if (isUniqueViolation(e)) continue; // another replica fired this step
        throw e;
      }
      res.signals++;
      if (p.mode !== "active") continue;
      tally(await callScale(db, p, signal, target(signal), executorFor(p), now, retry));
    }
  }
  return res;
}

/** What the executor is asked for one signal of a pool (its group and place from its hosts). */
function targetOf(
  policyId: string,
  sig: { id: string; direction: string; fromSize: number; toSize: number },
  pool: Pool,
  members: readonly EvalHost[],
): ScaleTarget {
  const first = members[0];
  return {
    policyId,
    signalId: sig.id,
    pool: pool.key,
    group: pool.group,
    provider: first?.provider ?? "unknown",
    region: first?.region ?? "unknown",
    zone: first?.zone ?? null,
    direction: sig.direction === "in" ? "in" : "out",
    fromSize: sig.fromSize,
    desired: sig.toSize,
  };
}

/** The newest scale signals of the policies the caller may see (settings page, API). */
export async function listScaleSignals(
  scope: TeamScope,
  db: Db = defaultDb,
  limit = 50,
): Promise<{ signals: ScaleSignalDto[] }> {
  const rows = await db.policyScaleEvent.findMany({
    orderBy: { at: "desc" },
    take: limit,
    include: { policy: true },
  });
  return {
    signals: rows
      .filter((r) => policyInScope(scope, r.policy))
      .map((r) => ({
        id: r.id,
        policyId: r.policyId,
        policyName: r.policy.name,
        mode: r.mode as ScaleSignalDto["mode"],
        pool: r.pool,
        direction: r.direction as ScaleSignalDto["direction"],
        share: r.share,
        hosts: r.hosts,
        fromSize: r.fromSize,
        toSize: r.toSize,
        state: r.state as ScaleSignalDto["state"],
        detail: r.detail,
        at: r.at.toISOString(),
      })),
  };
}
