import "server-only";
import { randomUUID } from "node:crypto";
import { ConflictError } from "../core/errors.ts";
import { auditData, type AuditInput } from "../auth/audit.ts";
import type { Db } from "../db.ts";
import { monthBounds } from "../core/months.ts";
import { chunks, ID_CHUNK, type RowChange } from "./reprice-store.ts";
import { dialectOf, placeholder } from "./reprice-sql-ctes.ts";
import { refreshUsageDays } from "./usage-days.ts";
import { refreshHostDaysSql } from "./usage-days-sql.ts";

// A re-pricing run writes a month's new ledger values so that the month moves from its old total
// to its new one at once or not at all, whatever dies part-way (issue 23; docs/architecture.md,
// "Domain rules"):
// 1. the audit entry `pricing.reprice.started` and the RepriceRun row are written first, together;
// 2. the changed rows' new values are staged in RepriceStage, page by page (short transactions:
//    SQLite's one writer lock is never held for long, so the collector keeps writing meanwhile);
// 3. one UPDATE … FROM statement swaps every staged value into UsageHour, in the transaction that
//    marks the run applied and audits it. The database makes that statement atomic on SQLite and
//    PostgreSQL alike, and it is set-based, so it holds the lock far shorter than a transaction
//    over the whole paged read-compute-write pass would. On PostgreSQL the set-based re-pricing
//    stages only what it prices per row: the rest is written in place by one UPDATE in that same
//    transaction (reprice-fast.ts swapSql), which is as atomic and spares a copy of every row.
// A run killed while staging never touched UsageHour: recoverRepriceRuns marks it abandoned once
// it has been silent for STALE_RUN_MS, deletes what it staged and audits that.

/** A staging run that has not staged a page for this long has died (a page takes well under 1 s). */
export const STALE_RUN_MS = 2 * 60_000;
/** Long enough for the swap of a large fleet's month in one statement (PostgreSQL or SQLite). */
const SWAP_TIMEOUT_MS = 10 * 60_000;

export interface RunStart {
  month: string;
  by: string;
  expectedNewTotal: bigint;
  oldTotal: bigint;
  reopen: boolean;
  ip: string | null;
  /** catalogue | bill (the re-pricing source, issue 26) */
  source: string;
}

/** Records the attempt (audit first, in the same transaction as the run row); returns its id. */
export async function startRun(db: Db, start: RunStart): Promise<string> {
  const id = randomUUID();
  await db.$transaction([
    db.auditEvent.create({
      data: auditData({
        actor: start.by,
        action: "pricing.reprice.started",
        target: start.month,
        detail: {
          runId: id,
          oldTotalMicros: start.oldTotal.toString(),
          expectedNewTotalMicros: start.expectedNewTotal.toString(),
          reopen: start.reopen,
          source: start.source,
        },
        ip: start.ip,
      }),
    }),
    db.repriceRun.create({
      data: {
        id,
        month: start.month,
        by: start.by,
        expectedNewTotalMicros: start.expectedNewTotal,
      },
    }),
  ]);
  return id;
}

/**
 * The SET of a holder row (alias h) from its re-priced GPU-hour (alias u): the holders' shares of
 * each re-priced GPU-hour follow its new cost, by the weights they were split by (sharePpm; idle by
 * idle seconds), rounded down, so a GPU-hour's holders never add up to more than its cost and the
 * by-holder table's "not held" row stays the rest. Staged swaps and in-place writes share it.
 */
export const HOLDER_SHARES = `"costMicros" = (u."costMicros" * h."sharePpm") / 1000000,
  "idleCostMicros" = CASE WHEN u."idleSeconds" > 0
    THEN (u."idleCostMicros" * h."idleSeconds") / u."idleSeconds" ELSE 0 END`;
/** Which holder rows (h) belong to GPU-hour u. */
export const HOLDER_OF_U = `h."hostId" = u."hostId" AND h."hourStart" = u."hourStart"
  AND h."gpuKey" = u."gpuKey"`;

/** RepriceStage rows for `changes` under `runId`. */
export function stageRows(runId: string, changes: readonly RowChange[]) {
  return changes.map(({ id, values: v }) => ({
    runId,
    usageHourId: id,
    costMicros: v.costMicros,
    idleCostMicros: v.idleCostMicros,
    priced: v.priced,
    currency: v.currency,
    actualSource: v.actualSource,
    listCostMicros: v.listCostMicros,
  }));
}

/** Stages one page's changed rows; the run's updatedAt is its heartbeat. */
export async function stagePage(db: Db, runId: string, changes: readonly RowChange[]) {
  const [live] = await db.$transaction([
    db.repriceRun.updateMany({
      where: { id: runId, state: "staging" },
      data: { stagedRows: { increment: changes.length } },
    }),
    db.repriceStage.createMany({ data: stageRows(runId, changes) }),
  ]);
  if (live.count === 0) {
    await db.repriceStage.deleteMany({ where: { runId } });
    throw new ConflictError(
      "this re-pricing was abandoned while it staged (it stalled); run it again",
    );
  }
}

/**
 * Swaps the staged values into the ledger, marks the run applied and writes `audit`, in one
 * transaction; refused when the run is no longer staging (abandoned). `inPlace`, when given,
 * writes the rows that were not staged first (PostgreSQL's set-based re-pricing), in the same
 * transaction, and may stage more; a throw rolls everything back.
 */
export async function swapIn(
  db: Db,
  runId: string,
  audit: () => AuditInput,
  /** the hosts whose hours it re-prices, when the caller knows them (else every host is rolled up) */
  hostIds?: readonly string[],
  inPlace?: (tx: Db) => Promise<void>,
): Promise<void> {
  await db.$transaction(
    async (tx) => {
      const claimed = await tx.repriceRun.updateMany({
        where: { id: runId, state: "staging" },
        data: { state: "applied", finishedAt: new Date() },
      });
      if (claimed.count === 0) {
        throw new ConflictError(
          "this re-pricing was abandoned before it was applied; run it again",
        );
      }
      if (inPlace) await inPlace(tx as unknown as Db);
      await tx.$executeRaw`UPDATE "UsageHour" AS u
        SET "costMicros" = s."costMicros", "idleCostMicros" = s."idleCostMicros",
            "priced" = s."priced", "currency" = s."currency",
            "actualSource" = s."actualSource", "listCostMicros" = s."listCostMicros"
        FROM "RepriceStage" AS s
        WHERE s."runId" = ${runId} AND u."id" = s."usageHourId"`;
      // the holders of each staged GPU-hour follow its new cost (HOLDER_SHARES)
      await tx.$executeRawUnsafe(
        `UPDATE "UsageHourHolder" AS h SET ${HOLDER_SHARES}
        FROM "RepriceStage" AS s JOIN "UsageHour" AS u ON u."id" = s."usageHourId"
        WHERE s."runId" = ${placeholder(dialectOf(db), 1)} AND ${HOLDER_OF_U}`,
        runId,
      );
      await tx.repriceStage.deleteMany({ where: { runId } });
      // the month's day roll-up follows the swapped costs in the same transaction (issue 27): of
      // the hosts it re-prices when the caller names them, else of every host
      const run = await tx.repriceRun.findUniqueOrThrow({ where: { id: runId } });
      const month = monthBounds(run.month);
      if (hostIds) await refreshHostDaysSql(tx, dialectOf(db), { ...month, hostIds });
      else await refreshUsageDays(tx, month);
      await tx.auditEvent.create({ data: auditData(audit()) });
    },
    { timeout: SWAP_TIMEOUT_MS, maxWait: SWAP_TIMEOUT_MS },
  );
}

/** Ends a staging run without applying it: its staged rows go, the ledger was never touched. */
export async function abandonRun(
  db: Db,
  runId: string,
  actor: string,
  reason: string,
  staleBefore?: Date,
): Promise<boolean> {
  const run = await db.repriceRun.findUnique({ where: { id: runId } });
  const ended = await db.repriceRun.updateMany({
    where: {
      id: runId,
      state: "staging",
      ...(staleBefore ? { updatedAt: { lt: staleBefore } } : {}),
    },
    data: { state: "abandoned", finishedAt: new Date() },
  });
  if (ended.count === 0 || !run) return false;
  await db.$transaction([
    db.repriceStage.deleteMany({ where: { runId } }),
    db.auditEvent.create({
      data: auditData({
        actor,
        action: "pricing.reprice.abandoned",
        target: run.month,
        detail: { runId, by: run.by, stagedRows: run.stagedRows, reason },
      }),
    }),
  ]);
  return true;
}

/**
 * Abandons runs that died while staging (no page for STALE_RUN_MS) and clears rows left staged by
 * ended runs; returns the ids abandoned. Cheap when there is nothing to do (an indexed read).
 */
export async function recoverRepriceRuns(db: Db, now: Date = new Date()): Promise<string[]> {
  const staleBefore = new Date(now.getTime() - STALE_RUN_MS);
  const stale = await db.repriceRun.findMany({
    where: { state: "staging", updatedAt: { lt: staleBefore } },
    select: { id: true },
  });
  const abandoned: string[] = [];
  for (const { id } of stale) {
    const reason = "stopped while staging (the process died or stalled); the ledger is unchanged";
    if (await abandonRun(db, id, "system", reason, staleBefore)) abandoned.push(id);
  }
  // a process killed between abandoning a run and deleting its staged rows leaves them behind
  const ended = await db.repriceRun.findMany({
    where: { state: { not: "staging" }, stage: { some: {} } },
    select: { id: true },
  });
  for (const part of chunks(
    ended.map((r) => r.id),
    ID_CHUNK,
  )) {
    await db.repriceStage.deleteMany({ where: { runId: { in: part } } });
  }
  return abandoned;
}

/** A run of `month` still staging and alive, if any (one re-pricing of a month at a time). */
export async function liveRun(db: Db, month: string, now: Date = new Date()) {
  return db.repriceRun.findFirst({
    where: {
      month,
      state: "staging",
      updatedAt: { gte: new Date(now.getTime() - STALE_RUN_MS) },
    },
    select: { id: true, by: true, startedAt: true },
  });
}
