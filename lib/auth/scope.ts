import { ForbiddenError } from "@/lib/core/errors.ts";
import type { Db } from "@/lib/db.ts";
import type { Actor } from "./actor.ts";

// A user may be limited to some teams (host.team values): they then see only those teams' hosts
// and what hangs off them (GPUs, spend, alerts, recommendations, team budgets). `null` means
// everything: users without a limit and API tokens. Every verb that filters takes a TeamScope.

export type TeamScope = readonly string[] | null;

declare const checked: unique symbol;
/**
 * The id of a `K` (an alert, a recommendation) whose team scope was checked for the caller. Only
 * the `*InScope` functions of each feature make one, and the services that change scoped data take
 * only this type, so no route can reach a change without the scope check (404 outside it).
 */
export type ScopedId<K extends string> = string & { readonly [checked]: K };

/** For the scope checks themselves, after they passed. */
export function scopedId<K extends string>(id: string): ScopedId<K> {
  return id as ScopedId<K>;
}

/** The teams `actor` is limited to, or null when it sees every team. */
export function teamScope(actor: Actor): string[] | null {
  if (actor.kind !== "user" || actor.teams.length === 0) return null;
  return [...new Set(actor.teams)].sort();
}

/**
 * The price catalogue, the exchange rates and the ledger's re-pricing are fleet-wide: a change to
 * them moves every team's costs, so only an actor without a team limit (a user with none, or an
 * API token) may make one. Throws a 403 naming `what` otherwise.
 */
export function requireFleetWide(actor: Actor, what: string): void {
  requireNoTeamLimit(actor, `${what} changes every team's costs`);
}

/**
 * What covers the whole account (a change to the catalogue, a cloud bill) is only for an actor
 * without a team limit; otherwise a 403 giving `why`.
 */
export function requireNoTeamLimit(actor: Actor, why: string): void {
  if (teamScope(actor) === null) return;
  throw new ForbiddenError(
    `forbidden: ${why}, and your account is limited to some teams; ` +
      "ask a finance user or an admin without a team limit",
  );
}

/** Whether a thing of `team` (a host's, a budget's) is visible within `scope`. */
export function inTeamScope(scope: TeamScope, team: string | null | undefined): boolean {
  if (scope === null) return true;
  return team !== null && team !== undefined && scope.includes(team);
}

/** A stable key for per-scope caches. */
export function scopeKey(scope: TeamScope): string {
  return scope === null ? "*" : JSON.stringify([...scope].sort());
}

/**
 * The one team whose budget stands for a limited actor's spend: a team budget covers exactly one
 * team, so it fits only when the actor is limited to one; null otherwise.
 */
export function singleTeam(scope: TeamScope): string | null {
  return scope !== null && scope.length === 1 ? (scope[0] ?? null) : null;
}

/** Whether a budget may be seen (and, by a budget writer, changed) within `scope`. */
export function budgetInScope(
  scope: TeamScope,
  budget: { scopeKind: string; scopeValue: string },
): boolean {
  return scope === null || (budget.scopeKind === "team" && scope.includes(budget.scopeValue));
}

/** Ids of the hosts within `scope`; null when unlimited (no filter needed). */
export async function hostIdsInScope(client: Db, scope: TeamScope): Promise<string[] | null> {
  if (scope === null) return null;
  const hosts = await client.host.findMany({
    where: { team: { in: [...scope] } },
    select: { id: true },
  });
  return hosts.map((h) => h.id);
}
