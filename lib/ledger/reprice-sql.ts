import "server-only";
import type { Db } from "../db.ts";
import type { PriceTable } from "./reprice-prices.ts";
import { HOLDER_OF_U, HOLDER_SHARES } from "./reprice-run.ts";
import { ctes, dialectOf, params, sized, sizeTx, type Dialect } from "./reprice-sql-ctes.ts";

// The set-based re-pricing's statements (the SQL and its rules: reprice-sql-ctes.ts): the tally
// of a range, host rows alone (apply's checks) or with the changed hours split again (the
// preview's rows changed), the staging INSERT (SQLite) and the in-place UPDATE (PostgreSQL).

/** A host's part of a range's tally from its host rows (hours on actuals excluded). */
export interface KeyTally {
  hostId: string;
  instanceType: string;
  pricingModel: string;
  hours: number;
  oldMicros: bigint;
  newMicros: bigint;
  hoursChanged: number;
  unpricedAfter: number;
  newlyPriced: number;
  newlyUnpriced: number;
  /** rows the SQL re-prices that change (its MIG hours' rows are the per-row pass's) */
  rowsChanged: number;
  /** the first hour priced after, and its currency */
  firstPriced: Date | null;
  currency: string | null;
  /** hours on actuals (priced in Node), and hours whose attribution had no price key */
  actualHours: number;
  missingHours: number;
}

export interface RangeTally {
  keys: KeyTally[];
  /** changed hours with MIG slices, for the per-row pass (with `detail` only) */
  migHours: { hostId: string; hourStart: Date }[];
}

const sum = (e: string) => `CAST(COALESCE(SUM(${e}), 0) AS BIGINT)`;
const CHANGED = `nc <> oc OR np <> op OR ncur <> ocur`;
const OK = `oa IS NULL AND pk IS NOT NULL`;
/** The host-level tally per host, instance type and pricing model, off hh. */
const KEYS = `k AS (
  SELECT hid, it, pm,
    ${sum(`CASE WHEN ${OK} THEN 1 ELSE 0 END`)} AS hours,
    ${sum(`CASE WHEN ${OK} THEN oc ELSE 0 END`)} AS old,
    ${sum(`CASE WHEN ${OK} THEN nc ELSE 0 END`)} AS new,
    ${sum(`CASE WHEN ${OK} AND (${CHANGED}) THEN 1 ELSE 0 END`)} AS changed,
    ${sum(`CASE WHEN ${OK} AND NOT np THEN 1 ELSE 0 END`)} AS unpriced,
    ${sum(`CASE WHEN ${OK} AND np AND NOT op THEN 1 ELSE 0 END`)} AS newly_priced,
    ${sum(`CASE WHEN ${OK} AND op AND NOT np THEN 1 ELSE 0 END`)} AS newly_unpriced,
    MIN(CASE WHEN ${OK} AND np THEN hs END) AS first_priced,
    MAX(CASE WHEN ${OK} AND np THEN ncur END) AS cur,
    ${sum(`CASE WHEN oa IS NOT NULL THEN 1 ELSE 0 END`)} AS actual,
    ${sum(`CASE WHEN oa IS NULL AND pk IS NULL THEN 1 ELSE 0 END`)} AS missing
  FROM hh WHERE gk = 'host' GROUP BY hid, it, pm
)`;
const KEY_COLUMNS = `k.hid, k.it, k.pm, k.first_priced AS hs, k.hours, k.old, k.new, k.actual,
  k.missing, k.changed, k.unpriced, k.newly_priced, k.newly_unpriced`;

/**
 * The tally of [from, to) at `table`'s prices; writes nothing. With `detail` it also splits the
 * changed hours (the rows that change, and the MIG hours left to Node): the preview's; without,
 * the host rows alone (the totals apply checks against the preview's).
 */
export async function tallyRange(
  db: Db,
  table: PriceTable,
  range: { from: Date; to: Date },
  detail: boolean,
): Promise<RangeTally> {
  const { sql, values } = tallyStatement(dialectOf(db), table, range, detail);
  const rows = await sized(db, (c) => c.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...values));
  return readTally(rows);
}

/** The tally's statement and its parameters (the benchmark EXPLAINs it). */
export function tallyStatement(
  dialect: Dialect,
  table: PriceTable,
  range: { from: Date; to: Date },
  detail: boolean,
): { sql: string; values: string[] } {
  const sql = detail
    ? `${ctes(dialect, true)},
gc AS (
  SELECT hid, it, pm, COUNT(*) AS n FROM gn
  WHERE nc <> oc OR ni <> oi OR np <> op OR ncur <> ocur GROUP BY hid, it, pm
),
${KEYS}
SELECT 'k' AS kind, ${KEY_COLUMNS}, COALESCE(gc.n, 0) AS rows_changed, k.cur
FROM k LEFT JOIN gc ON gc.hid = k.hid AND gc.it = k.it AND gc.pm = k.pm
UNION ALL
SELECT 'm', hid, '', '', hs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL FROM mig`
    : `${ctes(dialect, false)},
${KEYS}
SELECT 'k' AS kind, ${KEY_COLUMNS}, 0 AS rows_changed, k.cur FROM k`;
  return { sql, values: params(table, range, dialect) };
}

function readTally(rows: readonly Record<string, unknown>[]): RangeTally {
  const out: RangeTally = { keys: [], migHours: [] };
  const n = (v: unknown) => Number(v ?? 0);
  const big = (v: unknown) => BigInt((v ?? 0) as bigint | number | string);
  const date = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));
  for (const r of rows) {
    if (r.kind === "m") {
      out.migHours.push({ hostId: String(r.hid), hourStart: date(r.hs) as Date });
      continue;
    }
    out.keys.push({
      hostId: String(r.hid),
      instanceType: String(r.it),
      pricingModel: String(r.pm),
      hours: n(r.hours),
      oldMicros: big(r.old),
      newMicros: big(r.new),
      hoursChanged: n(r.changed),
      unpricedAfter: n(r.unpriced),
      newlyPriced: n(r.newly_priced),
      newlyUnpriced: n(r.newly_unpriced),
      rowsChanged: n(r.rows_changed),
      firstPriced: date(r.hs),
      currency: r.cur == null ? null : String(r.cur),
      actualHours: n(r.actual),
      missingHours: n(r.missing),
    });
  }
  return out;
}

/**
 * SQLite: stages the new values of every row of [from, to) that the SQL re-prices and that
 * changes (the changed hours' host rows and the GPU rows that change; MIG hours excluded) into
 * RepriceStage under `runId`; returns the rows staged and the changed MIG hours (for the per-row
 * pass). PostgreSQL writes them in place instead (swapRangePg).
 */
export async function stageRange(
  db: Db,
  runId: string,
  table: PriceTable,
  range: { from: Date; to: Date },
): Promise<{ rows: number; migHours: RangeTally["migHours"] }> {
  const values = [...params(table, range, "sqlite"), runId];
  const staged = await db.$executeRawUnsafe(
    `${ctes("sqlite", true)}
INSERT INTO "RepriceStage" ("runId", "usageHourId", "costMicros", "idleCostMicros", "priced",
  "currency", "actualSource", "listCostMicros")
SELECT ?, "id", nc, ni, np, ncur, oa, ol FROM gn
WHERE nc <> oc OR ni <> oi OR np <> op OR ncur <> ocur`,
    ...values,
  );
  const mig = await db.$queryRawUnsafe<{ hid: string; hs: unknown }[]>(
    `${ctes("sqlite", true)}\nSELECT hid, hs FROM mig`,
    ...values.slice(0, 4),
  );
  return {
    rows: staged,
    migHours: mig.map((r) => ({
      hostId: r.hid,
      hourStart: r.hs instanceof Date ? r.hs : new Date(String(r.hs)),
    })),
  };
}

/** What swapRangePg wrote. */
export interface SwapTally {
  /** UsageHour rows re-priced in place */
  rows: number;
  /** the range's host rows' new total (hours on actuals excluded), as the tallies count it */
  newMicros: bigint;
  /** changed hours with MIG slices, left to the per-row pass */
  migHours: RangeTally["migHours"];
}

/**
 * PostgreSQL: re-prices [from, to) in place at `table`'s prices, in the caller's transaction and
 * in one statement: the rows that change (MIG hours excluded) and their holders' shares (as
 * reprice-run.ts's swap writes them from the stage), without staging a copy first (issue 27: the
 * copy was 40 % of a month's re-pricing at 10,000 GPUs). The statement also returns the host
 * rows' new total on the snapshot it wrote, for the caller to check against the preview's.
 */
export async function swapRangePg(
  tx: Db,
  table: PriceTable,
  range: { from: Date; to: Date },
): Promise<SwapTally> {
  await sizeTx(tx);
  const rows = await tx.$queryRawUnsafe<
    { kind: string; hid: string | null; hs: Date | null; n: bigint; total: bigint }[]
  >(
    `${ctes("postgres", true)},
tot AS (SELECT ${sum(`CASE WHEN ${OK} THEN nc ELSE 0 END`)} AS total FROM hh WHERE gk = 'host'),
up AS (
  UPDATE "UsageHour" AS t
  SET "costMicros" = gn.nc, "idleCostMicros" = gn.ni, "priced" = gn.np, "currency" = gn.ncur
  FROM gn WHERE t."id" = gn."id" AND (gn.nc <> gn.oc OR gn.ni <> gn.oi OR gn.np <> gn.op
    OR gn.ncur <> gn.ocur)
  RETURNING t."hostId", t."hourStart", t."gpuKey", t."costMicros", t."idleCostMicros",
    t."idleSeconds"
),
hu AS (
  UPDATE "UsageHourHolder" AS h SET ${HOLDER_SHARES} FROM up AS u WHERE ${HOLDER_OF_U}
  RETURNING 1
)
SELECT 't' AS kind, NULL AS hid, NULL::timestamp AS hs, (SELECT COUNT(*) FROM up) AS n,
  (SELECT total FROM tot) AS total
UNION ALL SELECT 'm', hid, hs, 0, 0 FROM mig`,
    ...params(table, range, "postgres"),
  );
  // (hu runs though nothing reads it: PostgreSQL runs every data-modifying CTE to completion)
  const t = rows.find((r) => r.kind === "t");
  return {
    rows: Number(t?.n ?? 0),
    newMicros: BigInt(t?.total ?? 0),
    migHours: rows
      .filter((r) => r.kind === "m")
      .map((r) => ({ hostId: String(r.hid), hourStart: r.hs as Date })),
  };
}
