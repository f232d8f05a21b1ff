import "server-only";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { RecommendationDto } from "../zod/schemas/recommendation.ts";
import type { ScopedId } from "../auth/scope.ts";
import { getRecommendation } from "./list-recommendations.ts";

// Accept (its saving counts as achieved), dismiss with a reason (never recreated), snooze until a
// date (reopens then, if it still applies), or reopen a dismissed / accepted / snoozed one.

interface Opts {
  client?: Db;
  now?: Date;
}

/** Recommendation ids checked against the caller's team scope (recommendationInScope). */
export type RecommendationId = ScopedId<"recommendation">;

async function act(
  client: Db,
  id: RecommendationId,
  from: string[],
  data: Prisma.RecommendationUpdateManyMutationInput,
): Promise<RecommendationDto> {
  const r = await client.recommendation.findUnique({ where: { id }, select: { state: true } });
  if (!r) throw new NotFoundError(`recommendation ${id}`);
  const done = await client.recommendation.updateMany({
    where: { id, state: { in: from } },
    data,
  });
  if (done.count !== 1) throw new ConflictError(`recommendation is ${r.state}`);
  // the scope was checked when the id was made
  return getRecommendation(id, { scope: null, client });
}

export function acceptRecommendation(
  id: RecommendationId,
  by: string,
  { client = defaultDb, now = new Date() }: Opts = {},
) {
  return act(client, id, ["open", "snoozed"], {
    state: "accepted",
    actedBy: by,
    actedAt: now,
    snoozedUntil: null,
  });
}

export function dismissRecommendation(
  id: RecommendationId,
  by: string,
  reason: string,
  { client = defaultDb, now = new Date() }: Opts = {},
) {
  return act(client, id, ["open", "snoozed"], {
    state: "dismissed",
    dismissReason: reason,
    actedBy: by,
    actedAt: now,
    snoozedUntil: null,
  });
}

export function snoozeRecommendation(
  id: RecommendationId,
  by: string,
  until: Date,
  { client = defaultDb, now = new Date() }: Opts = {},
) {
  if (until <= now) throw new ConflictError("snooze must end in the future");
  return act(client, id, ["open", "snoozed"], {
    state: "snoozed",
    snoozedUntil: until,
    actedBy: by,
    actedAt: now,
  });
}

export function reopenRecommendation(
  id: RecommendationId,
  by: string,
  { client = defaultDb, now = new Date() }: Opts = {},
) {
  return act(client, id, ["dismissed", "accepted", "snoozed"], {
    state: "open",
    dismissReason: null,
    snoozedUntil: null,
    actedBy: by,
    actedAt: now,
  });
}

/** Accepts once: an already accepted recommendation is returned as it is (accepting again). */
export async function acceptRecommendationOnce(
  id: RecommendationId,
  by: string,
  { client = defaultDb, now = new Date() }: Opts = {},
) {
  const r = await client.recommendation.findUnique({ where: { id }, select: { state: true } });
  if (r?.state === "accepted") return getRecommendation(id, { scope: null, client });
  try {
    return await acceptRecommendation(id, by, { client, now });
  } catch (e) {
    // a concurrent accept won
    const again = await client.recommendation.findUnique({
      where: { id },
      select: { state: true },
    });
    if (e instanceof ConflictError && again?.state === "accepted")
      return getRecommendation(id, { scope: null, client });
    throw e;
  }
}
