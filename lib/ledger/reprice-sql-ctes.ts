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
// - an hour with MIG slices (any row with a parentKey) has its host row priced here and its rows
//   split in Node (reprice-math.ts's weighted split): the statements return those hours instead
//   of splitting them; an hour on actuals is counted here and priced in Node (reprice-fast.ts).
// The same CTEs feed the tallies (reprice-sql.ts) and the writes (SQLite's staging INSERT,
// PostgreSQL's in-place UPDATE), so what is previewed is what is written. reprice-sql.test.ts
// compares both with the per-row pass. How the split is kept cheap at 10,000 GPUs (issue 27; the
// preview's statement 17 → 14 → 10 s on a 31-day ledger, the in-place write's 30 → 23 s):
// - the MIG hours come from the month's one scan (with detail it keeps the slices' rows too, few)
//   and are left out of ch before the join, not found by a second join nor by a window over g;
// - ch is joined in (host, hour) order, so PostgreSQL sorts each hour's rows apart (incremental
//   sort) instead of all 1.8 M together, and g streams into gn without being materialized;
// - the rank and the count share one window (one pass over the rows instead of two).

export type Dialect = "postgres" | "sqlite";

export function dialectOf(db: Db): Dialect {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" ? "postgres" : "sqlite";
}

/** a × b ÷ c rounded half away from zero, c > 0 (core/money.ts mulDivRound) */
const mdr = (a: string, b: string, c: string) =>
  `(CASE WHEN (${a}) * (${b}) >= 0 THEN (2 * (${a}) * (${b}) + (${c})) / (2 * (${c}))` +
  ` ELSE -((2 * -((${a}) * (${b})) + (${c})) / (2 * (${c}))) END)`;

/** The n-th (1-based) bind parameter of a raw statement in `dialect`. */
export function placeholder(dialect: Dialect, n: number): string {
  return dialect === "postgres" ? `$${n}` : "?";
}

/** A date as the dialect stores it (Prisma's SQLite adapter: ISO text with "+00:00"). */
export function stamp(d: Date, dialect: Dialect): string {
  const iso = d.toISOString();
  return dialect === "sqlite" ? iso.replace("Z", "+00:00") : iso;
}

/** The statements' parameters: the price table as JSON, then the range. */
export function params(table: PriceTable, range: { from: Date; to: Date }, dialect: Dialect) {
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

/**
 * The CTEs every statement starts with: the price table and the range's host rows at their new
 * price (hh); with `detail`, the changed hours' rows split again (gn) and the MIG hours among them.
 * With `detail`, hh also holds the month's MIG slice rows (gk <> 'host'), so what reads hh for
 * host rows says gk = 'host'.
 */
export function ctes(dialect: Dialect, detail: boolean): string {
  const pg = dialect === "postgres";
  const ph = (n: number) => placeholder(dialect, n);
  const ts = (n: number) => (pg ? `${ph(n)}::timestamp` : ph(n));
  const j = (f: string) => `json_extract(value, '$.${f}')`;
  const hg = pg
    ? `SELECT * FROM jsonb_to_recordset(${ph(1)}::jsonb) AS x(h text, p text, t text, r text, m text, k int)`
    : `SELECT ${j("h")} AS h, ${j("p")} AS p, ${j("t")} AS t, ${j("r")} AS r, ${j("m")} AS m, ${j("k")} AS k FROM json_each(${ph(1)})`;
  const pp = pg
    ? `SELECT k, f::timestamp AS f, e::timestamp AS e, ok, c, cur FROM jsonb_to_recordset(${ph(2)}::jsonb) AS x(k int, f text, e text, ok boolean, c bigint, cur text)`
    : `SELECT ${j("k")} AS k, ${j("f")} AS f, ${j("e")} AS e, ${j("ok")} AS ok, ${j("c")} AS c, ${j("cur")} AS cur FROM json_each(${ph(2)})`;
  const byUuid = pg ? `u."gpuKey" COLLATE "C"` : `u."gpuKey"`;
  // with detail, the scan also keeps the MIG slices' rows (few), to find the MIG hours among the
  // changed ones without reading every changed hour's rows a second time (issue 27: 2 s a month)
  const rows = detail
    ? `(u."gpuKey" = 'host' OR u."parentKey" IS NOT NULL)`
    : `u."gpuKey" = 'host'`;
  // SQLite would otherwise read the JSON again for every ledger row it joins (24 s a month for
  // the 24-host demo); PostgreSQL hashes the small tables once either way
  const once = pg ? "" : " MATERIALIZED";
  const base = `WITH hg AS${once} (${hg}), pp AS${once} (${pp}),
hh AS (
  SELECT u."id", u."gpuKey" AS gk, u."hostId" AS hid, u."hourStart" AS hs, u."instanceType" AS it,
    u."pricingModel" AS pm, u."upSeconds" AS up, u."costMicros" AS oc, u."priced" AS op,
    u."currency" AS ocur, u."actualSource" AS oa, u."listCostMicros" AS ol, pp.k AS pk,
    CASE WHEN pp.ok THEN ${mdr("pp.c", `u."upSeconds"`, "3600")} ELSE 0 END AS nc,
    COALESCE(pp.ok, FALSE) AS np,
    CASE WHEN pp.ok THEN pp.cur ELSE 'USD' END AS ncur
  FROM "UsageHour" AS u
  LEFT JOIN hg ON hg.h = u."hostId" AND hg.p = u."provider" AND hg.t = u."instanceType"
    AND hg.r = u."region" AND hg.m = u."pricingModel"
  LEFT JOIN pp ON pp.k = hg.k AND u."hourStart" >= pp.f AND u."hourStart" < pp.e
  WHERE u."hourStart" >= ${ts(3)} AND u."hourStart" < ${ts(4)} AND ${rows}
)`;
  if (!detail) return base;
  return `${base},
cm AS (
  SELECT * FROM hh WHERE gk = 'host' AND oa IS NULL AND pk IS NOT NULL
    AND (nc <> oc OR np <> op OR ncur <> ocur)
),
mig AS (
  SELECT DISTINCT c.hid, c.hs FROM cm AS c JOIN hh AS s ON s.hs = c.hs AND s.hid = c.hid
  WHERE s.gk <> 'host'
),
ch AS (
  SELECT * FROM cm WHERE NOT EXISTS (SELECT 1 FROM mig WHERE mig.hid = cm.hid AND mig.hs = cm.hs)
),
g AS (
  SELECT u."id", u."gpuKey" AS gk, ch.hid, ch.hs, ch.it, ch.pm, ch.up, ch.nc AS hc, ch.np,
    ch.ncur, u."idleSeconds" AS idle, u."costMicros" AS oc,
    u."idleCostMicros" AS oi, u."priced" AS op, u."currency" AS ocur,
    u."actualSource" AS oa, u."listCostMicros" AS ol,
    row_number() OVER w AS rk, count(*) OVER w - 1 AS n
  FROM (SELECT * FROM ch ORDER BY hid, hs) AS ch
  JOIN "UsageHour" AS u ON u."hourStart" = ch.hs AND u."hostId" = ch.hid
  WINDOW w AS (PARTITION BY ch.hid, ch.hs
    ORDER BY CASE WHEN u."gpuKey" = 'host' THEN 1 ELSE 0 END, ${byUuid}
    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
gs AS (
  SELECT g.*, CASE WHEN gk = 'host' THEN hc WHEN hc >= 0
      THEN hc / n + CASE WHEN rk <= hc % n THEN 1 ELSE 0 END
      ELSE -((-hc) / n + CASE WHEN rk <= (-hc) % n THEN 1 ELSE 0 END) END AS nc
  FROM g
),
gi AS (
  SELECT gs.*, CASE WHEN gk = 'host' OR up = 0 THEN 0 ELSE ${mdr("nc", "idle", "up")} END AS gidle
  FROM gs
),
gn AS (
  SELECT gi.*, CASE WHEN gk = 'host' THEN SUM(gidle) OVER (PARTITION BY hid, hs)
    ELSE gidle END AS ni
  FROM gi
)`;
}

/** PostgreSQL: the rest of transaction `tx` may sort a month in memory and skips JIT (see sized). */
export async function sizeTx(tx: Pick<Db, "$executeRawUnsafe">): Promise<void> {
  await tx.$executeRawUnsafe(`SET LOCAL work_mem = '256MB'`);
  await tx.$executeRawUnsafe(`SET LOCAL jit = off`);
}

/** Long enough for a month of a large fleet in one statement. */
const STATEMENT_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs `f` on PostgreSQL in a transaction whose statements may sort and hash a month's changed
 * rows in memory (the default 4 MB work_mem spills them to disk) and skip JIT compilation (seconds
 * of it for a statement that runs once); on SQLite as it is.
 */
export async function sized<T>(db: Db, f: (c: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== "postgres") return f(db);
  return db.$transaction(
    async (tx) => {
      await sizeTx(tx as unknown as Db);
      return f(tx as unknown as Db);
    },
    { timeout: STATEMENT_TIMEOUT_MS, maxWait: STATEMENT_TIMEOUT_MS },
  );
}
