import "server-only";
import { inTeamScope, type TeamScope, scopedId, type ScopedId } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { NotFoundError } from "../core/errors.ts";
import type {
  RecommendationDto,
  RecommendationList,
  RecommendationListQuery,
} from "../zod/schemas/recommendation.ts";
import { possibleSaving } from "./compute.ts";
import { LAST_RUN } from "./recompute.ts";
import { recommendationDto } from "./to-dto.ts";
import { CONVENTION } from "./types.ts";

const HOST = { select: { hostname: true, team: true, project: true, owner: true } };

/** Recommendations on the hosts of a team-limited scope's teams; every one when unlimited. */
function visible(scope: TeamScope): Prisma.RecommendationWhereInput {
  return scope === null ? {} : { host: { team: { in: [...scope] } } };
}

export async function listRecommendations(
  q: RecommendationListQuery,
  { client = defaultDb, now = new Date(), scope }: { client?: Db; now?: Date; scope: TeamScope },
): Promise<RecommendationList> {
  const [rows, all, last] = await Promise.all([
    client.recommendation.findMany({
      where: {
        ...visible(scope),
        ...(q.state === "all" ? {} : { state: q.state }),
        ...(q.kind ? { kind: q.kind } : {}),
      },
      include: { host: HOST },
    }),
    client.recommendation.findMany({
      where: visible(scope),
      select: { hostId: true, state: true, monthlySavingMicros: true },
    }),
    client.jobState.findUnique({ where: { name: LAST_RUN } }),
  ]);
  // Highest saving first; ties by title so the order is stable.
  rows.sort((a, b) =>
    a.monthlySavingMicros === b.monthlySavingMicros
      ? a.title < b.title
        ? -1
        : 1
      : a.monthlySavingMicros > b.monthlySavingMicros
        ? -1
        : 1,
  );
  const of = (s: string) => all.filter((r) => r.state === s);
  const accepted = of("accepted");
  return {
    recommendations: rows.map(recommendationDto),
    totals: {
      possibleMicros: possibleSaving(of("open")).toString(),
      openCount: of("open").length,
      acceptedMicros: accepted.reduce((s, r) => s + r.monthlySavingMicros, 0n).toString(),
      acceptedCount: accepted.length,
      dismissedCount: of("dismissed").length,
      snoozedCount: of("snoozed").length,
    },
    lastComputedAt: last?.value ?? null,
    convention: CONVENTION,
    generatedAt: now.toISOString(),
  };
}

/** One recommendation; NotFoundError also when its host is outside a team-limited scope. */
export async function getRecommendation(
  id: string,
  { scope, client = defaultDb }: { scope: TeamScope; client?: Db },
): Promise<RecommendationDto> {
  const r = await client.recommendation.findUnique({ where: { id }, include: { host: HOST } });
  if (!r || !inTeamScope(scope, r.host.team)) throw new NotFoundError(`recommendation ${id}`);
  return recommendationDto(r);
}

/** The id once the recommendation's host is known to be within `scope`; NotFoundError (404) otherwise. */
export async function recommendationInScope(
  id: string,
  scope: TeamScope,
  client: Db = defaultDb,
): Promise<ScopedId<"recommendation">> {
  if (scope === null) return scopedId(id);
  const r = await client.recommendation.findUnique({
    where: { id },
    select: { host: { select: { team: true } } },
  });
  if (!r || !inTeamScope(scope, r.host.team)) throw new NotFoundError(`recommendation ${id}`);
  return scopedId(id);
}
