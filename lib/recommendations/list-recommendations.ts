import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../fleet/errors.ts";
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

export async function listRecommendations(
  q: RecommendationListQuery,
  { client = defaultDb, now = new Date() }: { client?: Db; now?: Date } = {},
): Promise<RecommendationList> {
  const [rows, all, last] = await Promise.all([
    client.recommendation.findMany({
      where: {
        ...(q.state === "all" ? {} : { state: q.state }),
        ...(q.kind ? { kind: q.kind } : {}),
      },
      include: { host: HOST },
    }),
    client.recommendation.findMany({
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

export async function getRecommendation(
  id: string,
  client: Db = defaultDb,
): Promise<RecommendationDto> {
  const r = await client.recommendation.findUnique({ where: { id }, include: { host: HOST } });
  if (!r) throw new NotFoundError(`recommendation ${id}`);
  return recommendationDto(r);
}
