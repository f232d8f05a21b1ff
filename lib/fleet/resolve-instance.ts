import "server-only";
import { inTeamScope, type TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { instanceHref } from "./instance-href.ts";

export type InstanceRoute =
  | { kind: "page"; id: string; hostname: string }
  | { kind: "redirect"; to: string }
  | { kind: "missing" };

/**
 * What `/instances/<key>` shows: the host named `key` (the canonical address), else a redirect
 * from a host id (the old address) to its name, else nothing. A name wins over an id; a host
 * outside the team scope is missing, so a redirect never tells an id's name.
 */
export async function resolveInstance(
  key: string,
  scope: TeamScope,
  db: Db = defaultDb,
): Promise<InstanceRoute> {
  if (key === "") return { kind: "missing" };
  const select = { id: true, hostname: true, team: true } as const;
  const byName = await db.host.findUnique({ where: { hostname: key }, select });
  if (byName && inTeamScope(scope, byName.team)) {
    return { kind: "page", id: byName.id, hostname: byName.hostname };
  }
  const byId = byName ? null : await db.host.findUnique({ where: { id: key }, select });
  if (byId && inTeamScope(scope, byId.team)) {
    return { kind: "redirect", to: instanceHref(byId.hostname) };
  }
  return { kind: "missing" };
}
