import "server-only";
import { ConflictError } from "../core/errors.ts";
import { pushTo } from "../core/group.ts";
import { DAY_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import type { PriceRow } from "../pricing/types.ts";
import { monthGroups, priceTable, type PriceTable } from "./reprice-prices.ts";
import { stagePage, stageRows } from "./reprice-run.ts";
import { CATALOGUE } from "./reprice-source.ts";
import { dialectOf } from "./reprice-sql-ctes.ts";
import { stageRange, swapRangePg, tallyRange, type RangeTally } from "./reprice-sql.ts";
import {
  chunks,
  hostLabels,
  ID_CHUNK,
  newTally,
  pricer,
  ROW_SELECT,
  tallyHour,
  type HostFacts,
  type LedgerRecord,
  type RowChange,
  type Tally,
} from "./reprice-store.ts";

// Re-pricing a month from the catalogue set-based (issue 27): the SQL of reprice-sql.ts prices
// and stages every hour it covers, and the few it leaves (hours on actuals, changed hours with MIG
// slices) go through the per-row pass (reprice-store.ts tallyHour), read by host and hour. The two
// tallies add up to what the per-row pass over the whole month gives (reprice-sql.test.ts).

/** What a pass found: the tally, the prices it used, the per-row part's changed rows. */
export interface SqlPlan {
  tally: Tally;
  table: PriceTable;
  /** the changed rows of the hours on actuals (priced in Node) */
  actualChanges: RowChange[];
  /** the SQL's part of tally.newTotal (the host rows not on actuals) */
  sqlNewTotal: bigint;
}

/** Rows per staged batch of the per-row part (createMany). */
const STAGE_ROWS = 5_000;

/**
 * The month's tally at today's catalogue, priced set-based; writes nothing. With `detail` (the
 * preview) it counts the rows that change too, splitting the changed hours (MIG hours per row in
 * Node); without (apply's checks), tally.rowsChanged counts only the hours on actuals' rows.
 */
export async function planSql(
  db: Db,
  bounds: { from: Date; to: Date },
  prices: readonly PriceRow[],
  detail: boolean,
): Promise<SqlPlan> {
  const hostOf = await hostLabels(db);
  let table = priceTable(await monthGroups(db, bounds, false), prices, hostOf, bounds);
  let found = await tallyRange(db, table, bounds, detail);
  if (found.keys.some((k) => k.missingHours > 0)) {
    // the roll-up lacks a group (a ledger older than the roll-up): take them from the ledger
    table = priceTable(await monthGroups(db, bounds, true), prices, hostOf, bounds);
    found = await tallyRange(db, table, bounds, detail);
    if (found.keys.some((k) => k.missingHours > 0)) {
      throw new Error("re-pricing: ledger hours outside every attribution group of the month");
    }
  }
  const t = sqlTally(found);
  const sqlNewTotal = t.tally.newTotal;
  const actualHours = found.keys.some((k) => k.actualHours > 0)
    ? await db.usageHour.findMany({
        where: {
          hourStart: { gte: bounds.from, lt: bounds.to },
          gpuKey: "host",
          actualSource: { not: null },
        },
        select: { hostId: true, hourStart: true },
      })
    : [];
  const actual = await tallyInNode(db, actualHours, prices, hostOf);
  if (detail) {
    // MIG hours: the SQL tallied their host rows; their rows are split per row in Node
    const mig = await tallyInNode(db, found.migHours, prices, hostOf);
    t.tally.rowsChanged += mig.tally.rowsChanged;
  }
  return { tally: merge(t, actual), table, actualChanges: actual.changes, sqlNewTotal };
}

interface Part {
  tally: Tally;
  /** the first host-hour priced after, whose currency tally.currency is */
  first: { at: number; hostId: string } | null;
}

const earlier = (a: Part["first"], b: Part["first"]): boolean =>
  a !== null && (b === null || a.at < b.at || (a.at === b.at && a.hostId < b.hostId));

function sqlTally(found: RangeTally): Part {
  const t = newTally();
  let first: Part["first"] = null;
  for (const k of found.keys) {
    addCounts(t, {
      hoursTotal: k.hours,
      oldTotal: k.oldMicros,
      newTotal: k.newMicros,
      hoursChanged: k.hoursChanged,
      newlyPriced: k.newlyPriced,
      newlyUnpriced: k.newlyUnpriced,
      unpricedAfter: k.unpricedAfter,
      actualAfter: 0,
      rowsChanged: k.rowsChanged,
    });
    const at = k.firstPriced ? { at: k.firstPriced.getTime(), hostId: k.hostId } : null;
    if (earlier(at, first)) {
      first = at;
      t.currency = k.currency;
    }
    if (k.hours === 0) continue;
    t.hosts.set([k.hostId, k.instanceType, k.pricingModel].join("\u0000"), {
      hostId: k.hostId,
      instanceType: k.instanceType,
      pricingModel: k.pricingModel,
      oldMicros: k.oldMicros,
      newMicros: k.newMicros,
      hoursChanged: k.hoursChanged,
    });
  }
  return { tally: t, first };
}

/** The per-row pass over the listed host-hours (read by host), in (hour, host) order. */
async function tallyInNode(
  db: Db,
  hours: readonly { hostId: string; hourStart: Date }[],
  prices: readonly PriceRow[],
  hostOf: (hostId: string) => HostFacts,
): Promise<Part & { changes: RowChange[] }> {
  const byHost = new Map<string, Date[]>();
  for (const h of hours) pushTo(byHost, h.hostId, h.hourStart);
  const groups = new Map<string, LedgerRecord[]>();
  for (const [hostId, starts] of byHost) {
    for (const part of chunks(starts, ID_CHUNK)) {
      const rows = await db.usageHour.findMany({
        where: { hostId, hourStart: { in: part } },
        select: ROW_SELECT,
      });
      for (const r of rows) {
        const key = `${r.hourStart.getTime().toString().padStart(16, "0")}\u0000${r.hostId}`;
        pushTo(groups, key, r);
      }
    }
  }
  const t = newTally();
  const changes: RowChange[] = [];
  const priceOf = pricer(prices, hostOf);
  let first: Part["first"] = null;
  for (const key of [...groups.keys()].sort()) {
    const rows = groups.get(key) ?? [];
    const had = t.currency;
    tallyHour(t, rows, CATALOGUE, priceOf, changes);
    const r = rows[0];
    if (had === null && t.currency !== null && r) {
      first = { at: r.hourStart.getTime(), hostId: r.hostId };
    }
  }
  return { tally: t, first, changes };
}

type Counts = Omit<Tally, "currency" | "hosts">;

/** Adds `o`'s counts and totals to `t`'s (hosts and currency are the callers'). */
function addCounts(t: Tally, o: Counts): void {
  t.oldTotal += o.oldTotal;
  t.newTotal += o.newTotal;
  t.hoursTotal += o.hoursTotal;
  t.hoursChanged += o.hoursChanged;
  t.newlyPriced += o.newlyPriced;
  t.newlyUnpriced += o.newlyUnpriced;
  t.unpricedAfter += o.unpricedAfter;
  t.actualAfter += o.actualAfter;
  t.rowsChanged += o.rowsChanged;
}

function merge(a: Part, b: Part): Tally {
  const t = a.tally;
  const o = b.tally;
  addCounts(t, o);
  if (earlier(b.first, a.first)) t.currency = o.currency;
  for (const [key, h] of o.hosts) {
    const mine = t.hosts.get(key);
    if (!mine) {
      t.hosts.set(key, { ...h });
      continue;
    }
    mine.oldMicros += h.oldMicros;
    mine.newMicros += h.newMicros;
    mine.hoursChanged += h.hoursChanged;
  }
  return t;
}

/**
 * Whether the SQL's rows are written in place at the swap (swapSql) rather than staged first:
 * on PostgreSQL, where the swap's one transaction makes the month move at once without a copy.
 * SQLite stages a day a statement, so its one writer lock is never held long (the collector
 * writes meanwhile) and the swap is one short UPDATE.
 */
export const inPlace = (db: Db): boolean => dialectOf(db) === "postgres";

/**
 * Stages `plan` under `runId`: the SQL's rows unless they are written in place (each statement
 * its own transaction, the run's heartbeat after each), then the changed MIG hours' and the hours
 * on actuals' rows, per row; returns the rows staged. At least one page is reported.
 */
export async function stageSql(
  db: Db,
  runId: string,
  plan: SqlPlan,
  bounds: { from: Date; to: Date },
  prices: readonly PriceRow[],
  onStagedPage?: (page: number) => Promise<void>,
): Promise<number> {
  let page = 0;
  let staged = 0;
  const migHours: { hostId: string; hourStart: Date }[] = [];
  const end = inPlace(db) ? bounds.from.getTime() : bounds.to.getTime();
  for (let t = bounds.from.getTime(); t < end; t += DAY_MS) {
    const range = { from: new Date(t), to: new Date(Math.min(t + DAY_MS, end)) };
    const done = await stageRange(db, runId, plan.table, range);
    staged += done.rows;
    migHours.push(...done.migHours);
    await heartbeat(db, runId, done.rows);
    await onStagedPage?.(++page);
  }
  const mig = await tallyInNode(db, migHours, prices, await hostLabels(db));
  const perRow = [...mig.changes, ...plan.actualChanges];
  for (const part of chunks(perRow, STAGE_ROWS)) {
    await stagePage(db, runId, part);
    await onStagedPage?.(++page);
  }
  if (page === 0) {
    await heartbeat(db, runId, 0);
    await onStagedPage?.(++page);
  }
  return staged + perRow.length;
}

/**
 * In the swap's transaction (PostgreSQL): writes the SQL's rows in place (swapRangePg), then
 * stages the changed MIG hours' rows, priced per row, for the swap's UPDATE from the stage.
 * Returns the rows written or staged and the SQL's new total on the snapshot it wrote.
 */
export async function swapSql(
  tx: Db,
  runId: string,
  plan: SqlPlan,
  bounds: { from: Date; to: Date },
  prices: readonly PriceRow[],
): Promise<{ rows: number; sqlNewTotal: bigint }> {
  const done = await swapRangePg(tx, plan.table, bounds);
  const mig = await tallyInNode(tx, done.migHours, prices, await hostLabels(tx));
  for (const part of chunks(mig.changes, STAGE_ROWS)) {
    await tx.repriceStage.createMany({ data: stageRows(runId, part) });
  }
  return { rows: done.rows + mig.changes.length, sqlNewTotal: done.newMicros };
}

async function heartbeat(db: Db, runId: string, rows: number): Promise<void> {
  const live = await db.repriceRun.updateMany({
    where: { id: runId, state: "staging" },
    data: { stagedRows: { increment: rows } },
  });
  if (live.count === 0) {
    await db.repriceStage.deleteMany({ where: { runId } });
    throw new ConflictError(
      "this re-pricing was abandoned while it staged (it stalled); run it again",
    );
  }
}
