import "server-only";
import type { Db } from "../db.ts";
import { chunked } from "./record-hosts.ts";
import {
  foldWork,
  hourRowKey,
  newWorkState,
  pruneWorkState,
  type WorkDelta,
  type WorkState,
} from "./work-counters.ts";
import type { ScrapeResult } from "./scrape.ts";

// The only writer of WorkHour (docs/architecture.md): hourly increases of the work counters the
// embedded collector scraped, and the demo's backfill of the same rows.

const ROWS_PER_TX = 500;

/** Adds each delta to its hour row (created at the delta when absent). */
export async function addWorkDeltas(db: Db, deltas: readonly WorkDelta[]): Promise<void> {
  for (const part of chunked([...deltas], ROWS_PER_TX)) {
    await db.$transaction(
      part.map((d) =>
        db.workHour.upsert({
          where: {
            hostId_hourStart_unit_modelName_job: {
              hostId: d.hostId,
              hourStart: d.hourStart,
              unit: d.unit,
              modelName: d.modelName,
              job: d.job,
            },
          },
          create: { ...d },
          update: { units: { increment: d.units }, source: d.source },
        }),
      ),
    );
  }
}

/**
 * Records one tick's work counters. Failures are logged, never thrown: work counts must never
 * cost the GPU metrics of the same tick.
 */
export async function recordWork(
  db: Db,
  state: WorkState,
  scraped: readonly { hostId: string; result: ScrapeResult }[],
  now: Date,
  log: (msg: string) => void = () => {},
): Promise<void> {
  const deltas: WorkDelta[] = [];
  for (const { hostId, result } of scraped) {
    if (!result.ok || !result.work) continue;
    deltas.push(...foldWork(state, hostId, result.work.series, now.getTime()));
  }
  pruneWorkState(state, new Set(scraped.map((s) => s.hostId)), now.getTime());
  if (deltas.length === 0) return;
  try {
    await addWorkDeltas(db, deltas);
    for (const d of deltas) state.written.add(hourRowKey(d));
  } catch (e) {
    log(`record work counters failed: ${(e as Error).message}`);
  }
}

export { newWorkState, type WorkState };

/** Writes whole hour rows that are not in the store yet (the demo's backfill of past hours). */
export async function insertWorkHours(db: Db, rows: readonly WorkDelta[]): Promise<void> {
  for (const part of chunked([...rows], 5000)) await db.workHour.createMany({ data: part });
}
