import "server-only";
import type { Db } from "../db.ts";

// Maximum run time (docs/architecture.md "Domain rules"): a host's run begins at its first
// answered minute after the last minute in which every scrape of it failed (stopped, rebooting,
// unreachable), as the store's host minutes show. A minute the app recorded nothing for (the app
// itself not running) is not a break. Without a failed minute within retention the run began at
// the oldest answered minute kept; without host minutes at all (Prometheus mode) at the first
// tick that saw the host up. Either way the clock never starts earlier than the host was seen.

/** The latest minute in which every scrape of the host failed, if the store keeps one. */
export async function lastDownMinute(db: Db, hostId: string): Promise<Date | null> {
  const row = await db.hostMinute.findFirst({
    where: { hostId, upSamples: 0, samples: { gt: 0 } },
    orderBy: { minuteStart: "desc" },
    select: { minuteStart: true },
  });
  return row?.minuteStart ?? null;
}

/** When the host's current run began (`now` when the store has no answered minute for it). */
export async function runStart(db: Db, hostId: string, now: Date): Promise<Date> {
  const down = await lastDownMinute(db, hostId);
  const first = await db.hostMinute.findFirst({
    where: { hostId, upSamples: { gt: 0 }, ...(down ? { minuteStart: { gt: down } } : {}) },
    orderBy: { minuteStart: "asc" },
    select: { minuteStart: true },
  });
  return first && first.minuteStart < now ? first.minuteStart : now;
}

/** What the episode tracker asks of a policy kind. */
export interface EpisodeCondition {
  /** hosts the condition holds for now (scope, opt-out and spot state are checked apart) */
  holds: ReadonlySet<string>;
  /** whether a live episode that began at `since` still holds (same run, same idleness) */
  stillHolds(hostId: string, since: Date): Promise<boolean>;
  /** when the condition began for a host it holds for now */
  since(hostId: string): Promise<Date>;
}

/** A run lasts while the host answers; a failed minute after the episode began ends it. */
export function runtimeCondition(db: Db, up: ReadonlySet<string>, now: Date): EpisodeCondition {
  return {
    holds: up,
    async stillHolds(hostId, since) {
      const down = await lastDownMinute(db, hostId);
      return down === null || down < since;
    },
    since: (hostId) => runStart(db, hostId, now),
  };
}
