import "server-only";
import { hostIdsInScope, type TeamScope } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { AlertList, AlertListQuery } from "../zod/schemas/alert.ts";
import { LAST_EVALUATED } from "./evaluate-rules.ts";
import { alertDto } from "./to-dto.ts";

// The alerts page: filtered alerts, newest first, with counts per state and filter facets. A
// team-limited scope sees only alerts on its teams' hosts (fleet-wide ones have no host: hidden).

function stateWhere(state: AlertListQuery["state"], now: Date): Prisma.AlertWhereInput {
  const open = { state: { in: ["firing", "acknowledged"] } };
  switch (state) {
    case "open":
      return open;
    case "snoozed":
      return { ...open, snoozedUntil: { gt: now } };
    case "all":
      return {};
    default:
      return { state };
  }
}

export async function listAlerts(
  q: AlertListQuery,
  { client = defaultDb, now = new Date(), scope }: { client?: Db; now?: Date; scope: TeamScope },
): Promise<AlertList> {
  const ids = await hostIdsInScope(client, scope);
  const visible: Prisma.AlertWhereInput = ids === null ? {} : { hostId: { in: ids } };
  const filters: Prisma.AlertWhereInput = {
    ...stateWhere(q.state, now),
    ...(q.kind ? { kind: q.kind } : {}),
    ...(q.team ? { team: q.team } : {}),
    ...(q.project ? { project: q.project } : {}),
    ...(q.hostId ? { hostId: q.hostId } : {}),
  };
  const where: Prisma.AlertWhereInput = ids === null ? filters : { AND: [visible, filters] };
  const [rows, byState, snoozed, facetRows, last] = await Promise.all([
    client.alert.findMany({
      where,
      orderBy: [{ startsAt: "desc" }, { id: "asc" }],
      take: q.limit,
      include: { rule: { select: { name: true } } },
    }),
    client.alert.groupBy({ by: ["state"], where: visible, _count: { _all: true } }),
    client.alert.count({
      where: { ...visible, state: { in: ["firing", "acknowledged"] }, snoozedUntil: { gt: now } },
    }),
    client.alert.findMany({
      where: visible,
      distinct: ["team", "project", "hostId"],
      select: { team: true, project: true, hostId: true },
    }),
    client.jobState.findUnique({ where: { name: LAST_EVALUATED } }),
  ]);
  const hostIds = [
    ...new Set([...rows, ...facetRows].flatMap((r) => (r.hostId ? [r.hostId] : []))),
  ];
  const hosts = new Map(
    (
      await client.host.findMany({
        where: { id: { in: hostIds } },
        select: { id: true, hostname: true, owner: true },
      })
    ).map((h) => [h.id, h]),
  );
  const count = (s: string) => byState.find((r) => r.state === s)?._count._all ?? 0;
  const sorted = (xs: (string | null)[]) =>
    [...new Set(xs.filter((x): x is string => x !== null))].sort();
  return {
    alerts: rows.map((a) => alertDto(a, a.hostId ? hosts.get(a.hostId) : undefined, now)),
    counts: {
      firing: count("firing"),
      acknowledged: count("acknowledged"),
      snoozed,
      resolved: count("resolved"),
    },
    facets: {
      teams: sorted(facetRows.map((r) => r.team)),
      projects: sorted(facetRows.map((r) => r.project)),
      hosts: [...hosts.values()]
        .filter((h) => facetRows.some((r) => r.hostId === h.id))
        .map((h) => ({ id: h.id, hostname: h.hostname }))
        .sort((a, b) => (a.hostname < b.hostname ? -1 : 1)),
    },
    lastEvaluatedAt: last?.value ?? null,
    generatedAt: now.toISOString(),
  };
}
