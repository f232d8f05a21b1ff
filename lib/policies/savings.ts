import "server-only";
import { inTeamScope, type TeamScope } from "../auth/scope.ts";
import { divRoundHalfUp } from "../core/money.ts";
import { monthBounds, monthOf } from "../core/months.ts";
import { HOUR_MS } from "../core/time.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { SavingsDto } from "../zod/schemas/policy.ts";

// Realized savings: a host a policy stopped costs nothing while it stays stopped, so the money
// not spent is its price when stopped × the hours from the stop until it answered again (or now),
// within the month. Exact in micro-dollars; kept apart from recommendations' possible savings.

export function savedMicros(hourlyMicros: bigint, stoppedMs: number): bigint {
  return divRoundHalfUp(hourlyMicros * BigInt(Math.round(stoppedMs)), BigInt(HOUR_MS));
}

export async function policySavings(
  scope: TeamScope,
  {
    month,
    now = new Date(),
    client = defaultDb,
    hostId,
  }: { month?: string; now?: Date; client?: Db; hostId?: string } = {},
): Promise<SavingsDto> {
  const m = month ?? monthOf(now);
  const { from, to } = monthBounds(m);
  const episodes = await client.policyEpisode.findMany({
    where: {
      ...(hostId ? { hostId } : {}),
      // a cancelled job or deleted pod leaves its host running: no stopped hours to count
      holderKind: null,
      actedAt: { not: null, lt: to },
      // a resize is no stop: the host kept running (lib/policies/resize-episode.ts)
      resizeTo: null,
      OR: [{ resumedAt: null }, { resumedAt: { gt: from } }],
    },
    orderBy: { actedAt: "asc" },
  });
  const hosts = new Map(
    (
      await client.host.findMany({
        where: { id: { in: [...new Set(episodes.map((e) => e.hostId))] } },
        select: { id: true, hostname: true, team: true },
      })
    ).map((h) => [h.id, h]),
  );
  let total = 0n;
  const rows: SavingsDto["hosts"] = [];
  for (const e of episodes) {
    const h = hosts.get(e.hostId);
    if (!h || !inTeamScope(scope, h.team) || !e.actedAt) continue;
    const start = Math.max(e.actedAt.getTime(), from.getTime());
    const end = Math.min((e.resumedAt ?? now).getTime(), to.getTime(), now.getTime());
    if (end <= start) continue;
    const saved = e.hourlyMicros === null ? 0n : savedMicros(e.hourlyMicros, end - start);
    total += saved;
    rows.push({
      hostId: h.id,
      hostname: h.hostname,
      stoppedHours: Math.round(((end - start) / HOUR_MS) * 100) / 100,
      savedMicros: saved.toString(),
      stoppedAt: e.actedAt.toISOString(),
      resumedAt: e.resumedAt?.toISOString() ?? null,
    });
  }
  return { month: m, savedMicros: total.toString(), hosts: rows };
}

/** This month's policy stops of one host (the instance page's note); empty when none. */
export async function hostPolicySavings(
  hostId: string,
  { now = new Date(), client = defaultDb }: { now?: Date; client?: Db } = {},
): Promise<SavingsDto["hosts"]> {
  return (await policySavings(null, { now, client, hostId })).hosts;
}
