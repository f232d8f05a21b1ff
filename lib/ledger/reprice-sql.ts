import "server-only";
import type { Db } from "../db.ts";
import type { PriceTable } from "./reprice-prices.ts";

// Re-pricing a range of the ledger set-based, in SQL (issue 27: a month at 10,000 GPUs is 8 M
// rows; read through the client and priced in Node it took 17 minutes). The arithmetic is
// reprice-math.ts's, written in SQL for the hours it covers:
// - a host-hour's new cost is its price × up seconds ÷ 3600, rounded half away from zero
//   (mulDivRound), at the price reprice-prices.ts found for its price key at its start;
// - only host-hours whose host row changes (cost, priced, currency) are split again: an hour the
//   ledger wrote at the price in force re-prices to itself row for row (reprice-math.ts), so its
//   GPU rows cannot change when its host row does not;
// - the host cost is split evenly over the GPU rows in uuid order (splitEven: the first
//   |cost| mod n get one micro more, the sign restored), idle cost = share × idle s ÷ up s
//   rounded, the host row's idle cost the sum of its GPUs';
// - an hour with MIG slices (any row with a parentKey) is left to Node (reprice-math.ts's
//   weighted split): the statement returns those hours instead of pricing them; an hour on
//   actuals is not read here at all (reprice-fast.ts prices those in Node as well).
// The same CTEs feed the tally (preview and apply's check) and the staging INSERT, so what is
// previewed is what is staged. reprice-sql.test.ts compares both with the per-row pass.

export type Dialect = "postgres" | "sqlite";

export function dialectOf(db: Db): Dialect {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" ? "postgres" : "sqlite";
}

/** a × b ÷ c rounded half away from zero, c > 0 (core/money.ts mulDivRound) */
const mdr = (a: string, b: string, c: string) =>
  `(CASE WHEN (${a}) * (${b}) >= 0 THEN (2 * (${a}) * (${b}) + (${c})) / (2 * (${c}))` +
  ` ELSE -((2 * -((${a}) * (${b})) + (${c})) / (2 * (${c}))) END)`;

/** A date as the dialect stores it (Prisma's SQLite adapter: ISO text with "+00:00"). */
function stamp(d: Date, dialect: Dialect): string {
  const iso = d.toISOString();
  return dialect === "sqlite" ? iso.replace("Z", "+00:00") : iso;
}

/** The statements' parameters: the price table as JSON, then the range. */
function params(table: PriceTable, range: { from: Date; to: Date }, dialect: Dialect) {
  const groups = table.groups.map((g) => ({
    h: g.hostId,
    p: g.provider,
    t: g.instanceType,
    r: g.region,
    m: g.pricingModel,
    k: g.key,
  }));
  const periods = table.periods.map((p) => {
    if (p.usdPerHourMicros > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RangeError(`a price of ${p.usdPerHourMicros} micros an hour is out of range`);
    }
    return {
      k: p.key,
      f: stamp(p.from, dialect),
      e: stamp(p.to, dialect),
      ok: p.priced,
      c: Number(p.usdPerHourMicros),
      cur: p.currency,
    };
  });
  return [
    JSON.stringify(groups),
    JSON.stringify(periods),
    stamp(range.from, dialect),
    stamp(range.to, dialect),
  ];
}

/** The CTEs both statements share; `ph(n)` is the dialect's placeholder for parameter n. */
function ctes(dialect: Dialect): string {
  const pg = dialect === "postgres";
  const ph = (n: number) => (pg ? `$${n}` : "?");
  const ts = (n: number) => (pg ? `${ph(n)}::timestamp` : ph(n));
  const j = (f: string) => `json_extract(value, '$.${f}')`;
  const hg = pg
    ? `SELECT * FROM jsonb_to_recordset(${ph(1)}::jsonb) AS x(h text, p text, t text, r text, m text, k int)`
    : `SELECT ${j("h")} AS h, ${j("p")} AS p, ${j("t")} AS t, ${j("r")} AS r, ${j("m")} AS m, ${j("k")} AS k FROM json_each(${ph(1)})`;
  const pp = pg
    ? `SELECT k, f::timestamp AS f, e::timestamp AS e, ok, c, cur FROM jsonb_to_recordset(${ph(2)}::jsonb) AS x(k int, f text, e text, ok boolean, c bigint, cur text)`
    : `SELECT ${j("k")} AS k, ${j("f")} AS f, ${j("e")} AS e, ${j("ok")} AS ok, ${j("c")} AS c, ${j("cur")} AS cur FROM json_each(${ph(2)})`;
  const byUuid = pg ? `u."gpuKey" COLLATE "C"` : `u."gpuKey"`;
  return `WITH hg AS (${hg}), pp AS (${pp}),
hh AS (
  SELECT u."id", u."hostId" AS hid, u."hourStart" AS hs, u."instanceType" AS it,
    u."pricingModel" AS pm, u."upSeconds" AS up, u."costMicros" AS oc, u."priced" AS op,
    u."currency" AS ocur, u."actualSource" AS oa, u."listCostMicros" AS ol, pp.k AS pk,
    CASE WHEN pp.ok THEN ${mdr("pp.c", `u."upSeconds"`, "3600")} ELSE 0 END AS nc,
    COALESCE(pp.ok, FALSE) AS np,
    CASE WHEN pp.ok THEN pp.cur ELSE 'USD' END AS ncur
  FROM "UsageHour" AS u
  LEFT JOIN hg ON hg.h = u."hostId" AND hg.p = u."provider" AND hg.t = u."instanceType"
    AND hg.r = u."region" AND hg.m = u."pricingModel"
  LEFT JOIN pp ON pp.k = hg.k AND u."hourStart" >= pp.f AND u."hourStart" < pp.e
  WHERE u."hourStart" >= ${ts(3)} AND u."hourStart" < ${ts(4)} AND u."gpuKey" = 'host'
),
ch AS (
  SELECT * FROM hh WHERE oa IS NULL AND pk IS NOT NULL
    AND (nc <> oc OR np <> op OR ncur <> ocur)
),
g AS (
  SELECT u."id", u."gpuKey" AS gk, ch.hid, ch.hs, ch.it, ch.pm, ch.up, ch.nc AS hc, ch.np,
    ch.ncur, u."parentKey" AS par, u."idleSeconds" AS idle, u."costMicros" AS oc,
    u."idleCostMicros" AS oi, u."priced" AS op, u."currency" AS ocur,
    u."actualSource" AS oa, u."listCostMicros" AS ol,
    row_number() OVER (PARTITION BY ch.hid, ch.hs
      ORDER BY CASE WHEN u."gpuKey" = 'host' THEN 1 ELSE 0 END, ${byUuid}) AS rk,
    count(*) OVER (PARTITION BY ch.hid, ch.hs) - 1 AS n,
    MAX(CASE WHEN u."parentKey" IS NULL THEN 0 ELSE 1 END)
      OVER (PARTITION BY ch.hid, ch.hs) AS ismig
  FROM ch JOIN "UsageHour" AS u ON u."hourStart" = ch.hs AND u."hostId" = ch.hid
),
mig AS (SELECT DISTINCT hid, hs FROM g WHERE ismig = 1),
gs AS (
  SELECT g.*, CASE WHEN gk = 'host' THEN hc WHEN hc >= 0
      THEN hc / n + CASE WHEN rk <= hc % n THEN 1 ELSE 0 END
      ELSE -((-hc) / n + CASE WHEN rk <= (-hc) % n THEN 1 ELSE 0 END) END AS nc
  FROM g WHERE ismig = 0
),
gi AS (
  SELECT gs.*, CASE WHEN gk = 'host' OR up = 0 THEN 0 ELSE ${mdr("nc", "idle", "up")} END AS gidle
  FROM gs
),
gn AS (
  SELECT gi.*, CASE WHEN gk = 'host' THEN SUM(gidle) OVER (PARTITION BY hid, hs)
    ELSE gidle END AS ni
  FROM gi
),
sq AS (
  SELECT hh.*, CASE WHEN nc <> oc OR np <> op OR ncur <> ocur THEN 1 ELSE 0 END AS chg
  FROM hh WHERE oa IS NULL AND pk IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM mig WHERE mig.hid = hh.hid AND mig.hs = hh.hs)
)`;
}

/** A host's part of a range's tally (its hours on actuals and in MIG hours excluded). */
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
  /** changed hours with MIG slices, for the per-row pass */
  migHours: { hostId: string; hourStart: Date }[];
}

const sum = (e: string) => `CAST(COALESCE(SUM(${e}), 0) AS BIGINT)`;

/** The tally of [from, to) at `table`'s prices; writes nothing. */
export async function tallyRange(
  db: Db,
  table: PriceTable,
  range: { from: Date; to: Date },
): Promise<RangeTally> {
  const { sql, values } = tallyStatement(dialectOf(db), table, range);
  const rows = await sized(db, (c) => c.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...values));
  return readTally(rows);
}

/** The tally's statement and its parameters (the benchmark EXPLAINs it). */
export function tallyStatement(
  dialect: Dialect,
  table: PriceTable,
  range: { from: Date; to: Date },
): { sql: string; values: string[] } {
  const ok = `oa IS NULL AND pk IS NOT NULL`;
  const sql = `${ctes(dialect)},
gc AS (
  SELECT hid, it, pm, COUNT(*) AS n FROM gn
  WHERE nc <> oc OR ni <> oi OR np <> op OR ncur <> ocur GROUP BY hid, it, pm
),
k AS (
  SELECT hid, it, pm,
    ${sum(`CASE WHEN ${ok} THEN 1 ELSE 0 END`)} AS hours,
    ${sum(`CASE WHEN ${ok} THEN oc ELSE 0 END`)} AS old,
    ${sum(`CASE WHEN ${ok} THEN nc ELSE 0 END`)} AS new,
    ${sum(`CASE WHEN oa IS NOT NULL THEN 1 ELSE 0 END`)} AS actual,
    ${sum(`CASE WHEN oa IS NULL AND pk IS NULL THEN 1 ELSE 0 END`)} AS missing
  FROM hh
  WHERE NOT EXISTS (SELECT 1 FROM mig WHERE mig.hid = hh.hid AND mig.hs = hh.hs)
  GROUP BY hid, it, pm
),
s AS (
  SELECT hid, it, pm, ${sum("chg")} AS changed,
    ${sum("CASE WHEN NOT np THEN 1 ELSE 0 END")} AS unpriced,
    ${sum("CASE WHEN np AND NOT op THEN 1 ELSE 0 END")} AS newly_priced,
    ${sum("CASE WHEN op AND NOT np THEN 1 ELSE 0 END")} AS newly_unpriced,
    MIN(CASE WHEN np THEN hs END) AS first_priced, MAX(CASE WHEN np THEN ncur END) AS cur
  FROM sq GROUP BY hid, it, pm
)
SELECT 'k' AS kind, k.hid, k.it, k.pm, s.first_priced AS hs, k.hours, k.old, k.new, k.actual,
  k.missing, COALESCE(s.changed, 0) AS changed, COALESCE(s.unpriced, 0) AS unpriced,
  COALESCE(s.newly_priced, 0) AS newly_priced, COALESCE(s.newly_unpriced, 0) AS newly_unpriced,
  COALESCE(gc.n, 0) AS rows_changed, s.cur
FROM k LEFT JOIN s ON s.hid = k.hid AND s.it = k.it AND s.pm = k.pm
  LEFT JOIN gc ON gc.hid = k.hid AND gc.it = k.it AND gc.pm = k.pm
UNION ALL
SELECT 'm', hid, '', '', hs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL FROM mig`;
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
 * Stages the new values of every row of [from, to) that the SQL prices and that changes (host
 * rows of changed hours, and their GPU rows that change) into RepriceStage under `runId`; returns
 * the rows staged.
 */
export async function stageRange(
  db: Db,
  runId: string,
  table: PriceTable,
  range: { from: Date; to: Date },
): Promise<number> {
  const dialect = dialectOf(db);
  const run = dialect === "postgres" ? "$5" : "?";
  const sql = `${ctes(dialect)}
INSERT INTO "RepriceStage" ("runId", "usageHourId", "costMicros", "idleCostMicros", "priced",
  "currency", "actualSource", "listCostMicros")
SELECT ${run}, "id", nc, ni, np, ncur, oa, ol FROM gn
WHERE nc <> oc OR ni <> oi OR np <> op OR ncur <> ocur`;
  return sized(db, (c) => c.$executeRawUnsafe(sql, ...params(table, range, dialect), runId));
}

/** Long enough for a month of a large fleet in one statement. */
const STATEMENT_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs `f` on PostgreSQL in a transaction whose statements may sort and hash a month's changed
 * rows in memory (the default 4 MB work_mem spills them to disk) and skip JIT compilation (seconds
 * of it for a statement that runs once); on SQLite as it is.
 */
async function sized<T>(db: Db, f: (c: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== "postgres") return f(db);
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL work_mem = '256MB'`);
      await tx.$executeRawUnsafe(`SET LOCAL jit = off`);
      return f(tx as unknown as Db);
    },
    { timeout: STATEMENT_TIMEOUT_MS, maxWait: STATEMENT_TIMEOUT_MS },
  );
}
