import "server-only";
import { inTeamScope, type TeamScope } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { PlannedActionDto } from "../zod/schemas/policy.ts";
import { loadEvalHosts, toPolicyFacts } from "./evaluate.ts";
import { actAt } from "./policy-rules.ts";
import { resizeOf } from "./resize-episode.ts";
import { runDto, runFacts } from "./run-target.ts";
import { HOURS_PER_MONTH as MONTH_HOURS } from "../zod/schemas/recommendation.ts";

// What the policies would do (dry run) or are doing (active): one row per live episode, with the
// host, the action, when, and what it saves per month (the host's price × 730 h). A maximum-run-
// time policy lists every host in scope that is running, longest-running first; one counting jobs
// or pods lists each run, priced at its share of the host (its GPUs × the per-GPU price).

// the recommendations' month (730 h: 8,760 h a year ÷ 12)
const HOURS_PER_MONTH = BigInt(MONTH_HOURS);

export async function listPlannedActions(
  scope: TeamScope,
  { client = defaultDb, now = new Date() }: { client?: Db; now?: Date } = {},
): Promise<{ actions: PlannedActionDto[] }> {
  const [episodes, hosts] = await Promise.all([
    client.policyEpisode.findMany({
      where: { state: { in: ["open", "acting", "failed"] }, policy: { enabled: true } },
      include: { policy: true },
      orderBy: { idleSince: "asc" },
    }),
    loadEvalHosts(client, now),
  ]);
  const actions: PlannedActionDto[] = [];
  for (const e of episodes) {
    const h = hosts.get(e.hostId);
    if (!h || !inTeamScope(scope, h.team)) continue;
    const p = toPolicyFacts(e.policy);
    const resize = resizeOf(e, h);
    const run = e.holderKind ? runFacts(e, h) : null;
    const hourly = run ? run.hourlyMicros : h.hourlyMicros;
    const monthly = resize
      ? resize.monthlySavingMicros
      : hourly === null
        ? null
        : hourly * HOURS_PER_MONTH;
    actions.push({
      policyId: p.id,
      policyName: p.name,
      kind: p.kind as PlannedActionDto["kind"],
      mode: p.mode as PlannedActionDto["mode"],
      hostId: h.id,
      hostname: h.hostname,
      run: run ? runDto(run) : null,
      action: resize ? "resize" : (p.action as PlannedActionDto["action"]),
      resizeTo: resize?.to ?? null,
      idleSince: e.idleSince.toISOString(),
      actAt: actAt(p, e).toISOString(),
      state: e.state,
      warningsSent: e.warnings,
      keepUntil: e.keepUntil?.toISOString() ?? null,
      hourlyMicros: hourly?.toString() ?? null,
      monthlySavingMicros: monthly?.toString() ?? null,
    });
  }
  return { actions };
}
