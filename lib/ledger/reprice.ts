import "server-only";
import { ConflictError, InvalidInputError, parseOrThrow } from "../core/errors.ts";
import { formatMicros } from "../core/money.ts";
import { monthBounds, monthOf } from "../core/months.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { microsSchema } from "../zod/schemas/common.ts";
import { monthSchema } from "../zod/schemas/month.ts";
import type { RepriceHostDto, RepriceResultDto } from "../zod/schemas/reprice.ts";
import { inPlace, planSql, stageSql, swapSql } from "./reprice-fast.ts";
import { byUuid } from "./reprice-math.ts";
import {
  abandonRun,
  liveRun,
  recoverRepriceRuns,
  stagePage,
  startRun,
  swapIn,
} from "./reprice-run.ts";
import { CATALOGUE, type RepriceSource } from "./reprice-source.ts";
import { hostnames, scanMonth, type Tally } from "./reprice-store.ts";

// Re-pricing a month of the ledger with today's catalogue, or from the imported bills (the source:
// reprice-source.ts; docs/architecture.md, "Domain rules"):
// previewed first (writes nothing), then applied with the previewed new total through a recorded
// run (reprice-run.ts), so a month moves from its old total to its new one at once or not at all.
// The arithmetic of one host-hour is reprice-math.ts; reading the month is reprice-store.ts.

/** Ledger rows read per query: a month of a large fleet is streamed, never loaded whole. */
const PAGE_ROWS = 5_000;
/** Hosts listed in a preview (the counts cover all of them). */
const TOP_HOSTS = 50;

function invalidMonth(message: string): InvalidInputError {
  return new InvalidInputError(`invalid month: ${message}`, [{ path: "month", message }]);
}

/** The month's bounds, and whether it is closed (before the current UTC month of `now`). */
function checkMonth(month: string, now: Date): { from: Date; to: Date; closed: boolean } {
  parseOrThrow(monthSchema, month, "month");
  if (month < "2000-01") throw invalidMonth(`${month} is before 2000`);
  const current = monthOf(now);
  if (month > current) {
    throw invalidMonth(`${month} has not started yet (the current UTC month is ${current})`);
  }
  return { ...monthBounds(month), closed: month < current };
}

/** Rows per page: PAGE_ROWS unless a test asks for small pages (host-hours cut across pages). */
function pageSize(pageRows: number | undefined): number {
  return pageRows !== undefined && Number.isInteger(pageRows) && pageRows > 0
    ? pageRows
    : PAGE_ROWS;
}

const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/**
 * Whether the month is re-priced set-based (reprice-fast.ts): from the catalogue, unless a test
 * asks for the per-row pass's pages (pageRows) to cut host-hours across them. The bills' actuals
 * come from lib/billing per host-hour, so that source takes the per-row pass.
 */
const setBased = (source: RepriceSource, pageRows: number | undefined): boolean =>
  source.kind === "catalogue" && pageRows === undefined;

async function toResult(
  db: Db,
  month: string,
  source: RepriceSource,
  t: Tally,
  flags: { closed: boolean; applied: boolean; reopened: boolean; appliedBy: string | null },
): Promise<RepriceResultDto> {
  const changed = [...t.hosts.values()].filter((h) => h.hoursChanged > 0);
  const names = await hostnames(
    db,
    changed.map((h) => h.hostId),
  );
  const hosts: RepriceHostDto[] = changed
    .map((h) => ({ ...h, hostname: names.get(h.hostId) ?? h.hostId }))
    .sort((x, y) => {
      const dx = abs(x.newMicros - x.oldMicros);
      const dy = abs(y.newMicros - y.oldMicros);
      if (dx !== dy) return dx > dy ? -1 : 1;
      return (
        byUuid(x.hostname, y.hostname) ||
        byUuid(x.instanceType, y.instanceType) ||
        byUuid(x.pricingModel, y.pricingModel)
      );
    })
    .slice(0, TOP_HOSTS)
    .map((h) => ({
      hostId: h.hostId,
      hostname: h.hostname,
      instanceType: h.instanceType,
      pricingModel: h.pricingModel,
      oldMicros: h.oldMicros.toString(),
      newMicros: h.newMicros.toString(),
      deltaMicros: (h.newMicros - h.oldMicros).toString(),
      hoursChanged: h.hoursChanged,
    }));
  return {
    month,
    source: source.kind,
    ...flags,
    currency: t.currency ?? "USD",
    oldTotalMicros: t.oldTotal.toString(),
    newTotalMicros: t.newTotal.toString(),
    deltaMicros: (t.newTotal - t.oldTotal).toString(),
    hours: {
      total: t.hoursTotal,
      changed: t.hoursChanged,
      newlyPriced: t.newlyPriced,
      newlyUnpriced: t.newlyUnpriced,
      unpricedAfter: t.unpricedAfter,
      actualAfter: t.actualAfter,
    },
    rowsChanged: t.rowsChanged,
    hostsChanged: changed.length,
    hosts,
  };
}

/** What re-pricing `month` from `source` (today's catalogue by default) would change; writes nothing. */
export async function previewReprice(
  opts: { month: string; now: Date; pageRows?: number; source?: RepriceSource },
  db: Db = defaultDb,
): Promise<RepriceResultDto> {
  const bounds = checkMonth(opts.month, opts.now);
  const source = opts.source ?? CATALOGUE;
  const prices = await loadPriceRows(db);
  const tally = setBased(source, opts.pageRows)
    ? (await planSql(db, bounds, prices, true)).tally
    : await scanMonth(db, bounds, prices, { pageRows: pageSize(opts.pageRows), source });
  return toResult(db, opts.month, source, tally, {
    closed: bounds.closed,
    applied: false,
    reopened: false,
    appliedBy: null,
  });
}

export interface ApplyOptions {
  month: string;
  now: Date;
  /** who applies it (the audit entries' actor) */
  by: string;
  expectedNewTotalMicros: string | bigint;
  reopen?: boolean;
  ip?: string | null;
  pageRows?: number;
  /** where the new costs come from: today's catalogue (the default) or the imported bills */
  source?: RepriceSource;
  /** called after each staged page (the crash tests pause here to kill the process) */
  onStagedPage?: (page: number) => Promise<void>;
}

/**
 * Re-prices `month` with today's catalogue. Refused (409) when the new total differs from
 * `expectedNewTotalMicros` (the preview's: the catalogue or the ledger changed since, so preview
 * again), for a closed month unless `reopen`, and while another re-pricing of the month runs. The
 * check is a read-only pass before anything is written, so a refusal writes and audits nothing.
 * Then the run: audit `pricing.reprice.started`, stage, and swap in at once with the audit entry
 * `pricing.reprice` (or `pricing.reprice.reopen` for a closed month).
 */
export async function applyReprice(
  opts: ApplyOptions,
  db: Db = defaultDb,
): Promise<RepriceResultDto> {
  const bounds = checkMonth(opts.month, opts.now);
  if (bounds.closed && opts.reopen !== true) {
    throw new ConflictError(
      `${opts.month} is closed (billed): re-pricing it reopens it, so confirm with reopen`,
    );
  }
  const expected =
    typeof opts.expectedNewTotalMicros === "bigint"
      ? opts.expectedNewTotalMicros
      : BigInt(parseOrThrow(microsSchema, opts.expectedNewTotalMicros, "expected new total"));
  await recoverRepriceRuns(db);
  const running = await liveRun(db, opts.month);
  if (running) {
    throw new ConflictError(
      `${opts.month} is being re-priced by ${running.by} (started ` +
        `${running.startedAt.toISOString()}): wait for it to finish, then preview again`,
    );
  }
  const prices = await loadPriceRows(db);
  const pageRows = pageSize(opts.pageRows);
  const source = opts.source ?? CATALOGUE;
  // set-based, the check reads only the month's host rows: it is the totals that must match
  const plan = setBased(source, opts.pageRows) ? await planSql(db, bounds, prices, false) : null;
  const check = plan ? plan.tally : await scanMonth(db, bounds, prices, { pageRows, source });
  if (check.newTotal !== expected) throw stale(opts.month, check.newTotal, expected);

  const runId = await startRun(db, {
    month: opts.month,
    by: opts.by,
    expectedNewTotal: expected,
    oldTotal: check.oldTotal,
    reopen: bounds.closed,
    ip: opts.ip ?? null,
    source: source.kind,
  });
  let done: Tally;
  try {
    let page = 0;
    if (plan) {
      const staged = await stageSql(db, runId, plan, bounds, prices, opts.onStagedPage);
      // the month's totals again, after staging, as the per-row pass re-tallies while it stages;
      // written in place, the swap's own statement checks them on what it writes
      done = inPlace(db) ? plan.tally : (await planSql(db, bounds, prices, false)).tally;
      done.rowsChanged = staged;
    } else {
      done = await scanMonth(db, bounds, prices, {
        pageRows,
        source,
        onPage: async (changes) => {
          await stagePage(db, runId, changes);
          await opts.onStagedPage?.(++page);
        },
      });
    }
    if (done.newTotal !== expected) throw stale(opts.month, done.newTotal, expected);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    // if the store itself is failing, the recovery job abandons the run once it is stale
    await abandonRun(db, runId, opts.by, `failed while staging: ${reason}`).catch(() => false);
    throw e;
  }
  const writeInPlace =
    plan && inPlace(db)
      ? async (tx: Db) => {
          const w = await swapSql(tx, runId, plan, bounds, prices);
          const got = done.newTotal - plan.sqlNewTotal + w.sqlNewTotal;
          if (got !== expected) throw stale(opts.month, got, expected);
          done.rowsChanged += w.rows;
        }
      : undefined;
  await swapIn(
    db,
    runId,
    () => ({
      actor: opts.by,
      action: bounds.closed ? "pricing.reprice.reopen" : "pricing.reprice",
      target: opts.month,
      detail: {
        runId,
        oldTotalMicros: done.oldTotal.toString(),
        newTotalMicros: done.newTotal.toString(),
        hoursChanged: done.hoursChanged,
        rowsChanged: done.rowsChanged,
        reopened: bounds.closed,
        source: source.kind,
        ...(source.kind === "bill"
          ? { imports: [...source.imports], hoursOnActuals: done.actualAfter }
          : {}),
      },
      ip: opts.ip ?? null,
    }),
    plan
      ? [
          ...new Set(
            [...done.hosts.values()].filter((h) => h.hoursChanged > 0).map((h) => h.hostId),
          ),
        ]
      : undefined,
    writeInPlace,
  ).catch(async (e: unknown) => {
    // refused or failed in the swap: nothing was written; the run ends now, not when it is stale
    const reason = e instanceof Error ? e.message : String(e);
    await abandonRun(db, runId, opts.by, `failed while applying: ${reason}`).catch(() => false);
    throw e;
  });
  return toResult(db, opts.month, source, done, {
    closed: bounds.closed,
    applied: true,
    reopened: bounds.closed,
    appliedBy: opts.by,
  });
}

function stale(month: string, got: bigint, expected: bigint): ConflictError {
  return new ConflictError(
    `prices or usage changed since the preview: the new total of ${month} would be ` +
      `${formatMicros(got)}, not ${formatMicros(expected)}; preview again`,
  );
}
