import "server-only";
import { ConflictError, InvalidInputError, parseOrThrow } from "../core/errors.ts";
import { formatMicros, mulDivRound, splitByWeights, splitEven, sumMicros } from "../core/money.ts";
import { monthBounds, monthOf } from "../core/months.ts";
import type { Db } from "../db.ts";
import { microsSchema } from "../zod/schemas/common.ts";
import { monthSchema } from "../zod/schemas/month.ts";
import type { RepriceHostDto, RepriceResultDto } from "../zod/schemas/reprice.ts";
import { loadPriceRows } from "./catalogue-db.ts";
import { lookupPrice, type PriceLookup } from "./lookup.ts";
import type { PriceRow } from "./types.ts";

// Re-pricing: ledger hours keep the cost they were written with until finance re-prices a month
// explicitly, after a preview ("nothing re-prices silently"). The new cost of an hour is what
// the ledger (lib/ledger/ledger-math.ts computeHostHour) would have written with the price in force
// now at the hour's start, from the hour's stored rows: same rounding, same even split over the
// physical GPUs in uuid order, same MIG split, so re-pricing an hour with the price it was written
// with changes nothing. Only costMicros, idleCostMicros, priced and currency ever change: the
// ledger has no price reference, and usage (up/idle seconds) is what was measured.

const HOST_KEY = "host";
/** The ledger's fixed-point scale for MIG slice fractions (ledger-math.ts FRACTION_SCALE). */
const FRACTION_SCALE = 1_000_000;
/** Ledger rows read per query: a month of a large fleet is streamed, never loaded whole. */
const PAGE_ROWS = 5_000;
/** Ids per UPDATE … WHERE id IN (…), well under SQLite's and PostgreSQL's parameter limits. */
const UPDATE_CHUNK = 500;
/** Hosts listed in a preview (the counts cover all of them). */
const TOP_HOSTS = 50;

/** The columns of a stored UsageHour row that re-pricing reads. */
export interface StoredLedgerRow {
  /** "host" for the host row, else the GPU / MIG slice uuid */
  gpuKey: string;
  /** MIG slice rows: the physical GPU's uuid */
  parentKey: string | null;
  upSeconds: number;
  idleSeconds: number;
  memTotalBytes: bigint | null;
  priced: boolean;
  costMicros: bigint;
  idleCostMicros: bigint;
  currency: string;
}

/** What re-pricing writes to one row. */
export interface RepricedValues {
  costMicros: bigint;
  idleCostMicros: bigint;
  priced: boolean;
  currency: string;
}

export type RepricedRow = RepricedValues & { gpuKey: string };

const byUuid = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Weights for splitting a MIG parent's share over [parent (unallocated capacity), ...slices]
 * (slices in uuid order), as computeHostHour's splitByWeights call takes them.
 *
 * The ledger weighs a slice by its declared fraction (the exporter's migFraction, e.g. 3/7),
 * else by its share of the parent's memory, and neither the fraction nor the weight is stored.
 * - When the hour was priced, the old costs are the best record of those weights: they are
 *   exactly splitByWeights(oldShare, weights), so splitting the same share by the old costs gives
 *   the old costs back (re-pricing at the written price changes nothing), and splitting a new
 *   share by them is proportional to the original weights within a micro-dollar per slice (the
 *   old costs carry the ledger's rounding, at most one micro each).
 * - When it was not (every old cost 0), or the old share was 0 (0 s up, a $0 price), there is
 *   nothing to read them from: fall back to memTotalBytes shares with ledger-math's own sliceWeight
 *   arithmetic, which is exactly what the ledger did for slices without a declared fraction.
 */
function migWeights(
  parent: StoredLedgerRow | undefined,
  slices: readonly StoredLedgerRow[],
  hourPriced: boolean,
): bigint[] {
  const old = [parent?.costMicros ?? 0n, ...slices.map((s) => s.costMicros)];
  if (hourPriced && old.every((c) => c >= 0n) && sumMicros(old) > 0n) return old;
  const parentMem = parent?.memTotalBytes ?? null;
  const weights = slices.map((s) => {
    const byMemory =
      s.memTotalBytes !== null && parentMem !== null && parentMem > 0n
        ? Number(s.memTotalBytes) / Number(parentMem)
        : 0;
    return Math.round(Math.min(1, Math.max(0, byMemory)) * FRACTION_SCALE);
  });
  // As in computeHostHour: the parent keeps the capacity no slice holds, beyond rounding slack.
  const rest = FRACTION_SCALE - weights.reduce((s, w) => s + w, 0);
  const unallocated = rest > slices.length ? rest : 0;
  return [BigInt(unallocated), ...weights.map(BigInt)];
}

/**
 * The new cost of one host-hour's stored rows (the host row plus its GPU / MIG rows) at `price`,
 * with the ledger's arithmetic; returned in the order of `rows`.
 */
export function repriceHostHour(
  rows: readonly StoredLedgerRow[],
  price: PriceLookup,
): RepricedRow[] {
  const host = rows.find((r) => r.gpuKey === HOST_KEY);
  if (!host) throw new RangeError("a ledger hour without its host row");
  const hostUp = host.upSeconds;
  const hostCost = price.priced ? mulDivRound(price.usdPerHourMicros, BigInt(hostUp), 3600n) : 0n;
  const idleCost = (cost: bigint, idleSeconds: number): bigint =>
    hostUp === 0 ? 0n : mulDivRound(cost, BigInt(idleSeconds), BigInt(hostUp));

  const gpus = rows.filter((r) => r.gpuKey !== HOST_KEY);
  const rowOf = new Map(gpus.map((r) => [r.gpuKey, r]));
  const slicesOf = new Map<string, StoredLedgerRow[]>();
  for (const r of gpus) {
    if (r.parentKey === null) continue;
    slicesOf.set(r.parentKey, [...(slicesOf.get(r.parentKey) ?? []), r]);
  }
  // The ledger writes a row for every physical GPU, including a MIG parent that never reported
  // itself; counting parents of slices too keeps the even split right should that row be missing.
  const physical = [
    ...new Set([
      ...gpus.filter((r) => r.parentKey === null).map((r) => r.gpuKey),
      ...slicesOf.keys(),
    ]),
  ].sort(byUuid);
  const shares = physical.length > 0 ? splitEven(hostCost, physical.length) : [];

  const costs = new Map<string, bigint>();
  physical.forEach((key, i) => {
    const share = shares[i] ?? 0n;
    const gpu = rowOf.get(key);
    const slices = [...(slicesOf.get(key) ?? [])].sort((x, y) => byUuid(x.gpuKey, y.gpuKey));
    if (slices.length === 0) {
      costs.set(key, share);
      return;
    }
    const [parentCost = 0n, ...sliceCosts] = splitByWeights(
      share,
      migWeights(gpu, slices, host.priced),
    );
    costs.set(key, parentCost);
    slices.forEach((s, j) => costs.set(s.gpuKey, sliceCosts[j] ?? 0n));
  });

  const currency = price.priced ? price.currency : "USD";
  const gpuIdle = new Map(
    gpus.map((r) => [r.gpuKey, idleCost(costs.get(r.gpuKey) ?? 0n, r.idleSeconds)]),
  );
  const hostIdle = sumMicros(gpuIdle.values());
  return rows.map((r) =>
    r.gpuKey === HOST_KEY
      ? {
          gpuKey: r.gpuKey,
          costMicros: hostCost,
          idleCostMicros: hostIdle,
          priced: price.priced,
          currency,
        }
      : {
          gpuKey: r.gpuKey,
          costMicros: costs.get(r.gpuKey) ?? 0n,
          idleCostMicros: gpuIdle.get(r.gpuKey) ?? 0n,
          priced: price.priced,
          currency,
        },
  );
}

/** Whether re-pricing changes a row. */
export function rowChanges(before: RepricedValues, after: RepricedValues): boolean {
  return (
    before.costMicros !== after.costMicros ||
    before.idleCostMicros !== after.idleCostMicros ||
    before.priced !== after.priced ||
    before.currency !== after.currency
  );
}

// ---------------------------------------------------------------------------------------------
// A month of the ledger, streamed in pages of rows, grouped into host-hours.

const ROW_SELECT = {
  id: true,
  hourStart: true,
  hostId: true,
  gpuKey: true,
  parentKey: true,
  provider: true,
  instanceType: true,
  region: true,
  pricingModel: true,
  upSeconds: true,
  idleSeconds: true,
  memTotalBytes: true,
  priced: true,
  costMicros: true,
  idleCostMicros: true,
  currency: true,
} as const;

interface LedgerRecord extends StoredLedgerRow {
  id: string;
  hourStart: Date;
  hostId: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
}

/**
 * The month's host-hours, one page of rows at a time (keyset pagination on the unique index
 * (hourStart, hostId, gpuKey), so each page is one indexed range read). A host-hour cut by a page
 * boundary is carried into the next page, so every yielded group is complete.
 */
async function* hostHourPages(
  db: Db,
  from: Date,
  to: Date,
  pageRows: number,
): AsyncGenerator<LedgerRecord[][]> {
  let after: { hourStart: Date; hostId: string; gpuKey: string } | null = null;
  let pending: LedgerRecord[] = [];
  for (;;) {
    const page: LedgerRecord[] = await db.usageHour.findMany({
      where: after
        ? {
            hourStart: { gte: after.hourStart, lt: to },
            OR: [
              { hourStart: { gt: after.hourStart } },
              { hourStart: after.hourStart, hostId: { gt: after.hostId } },
              { hourStart: after.hourStart, hostId: after.hostId, gpuKey: { gt: after.gpuKey } },
            ],
          }
        : { hourStart: { gte: from, lt: to } },
      orderBy: [{ hourStart: "asc" }, { hostId: "asc" }, { gpuKey: "asc" }],
      take: pageRows,
      select: ROW_SELECT,
    });
    const groups: LedgerRecord[][] = [];
    for (const r of page) {
      const head = pending[0];
      if (
        head &&
        (head.hostId !== r.hostId || head.hourStart.getTime() !== r.hourStart.getTime())
      ) {
        groups.push(pending);
        pending = [];
      }
      pending.push(r);
    }
    const last = page.at(-1);
    if (page.length < pageRows || !last) {
      if (pending.length > 0) groups.push(pending);
      if (groups.length > 0) yield groups;
      return;
    }
    if (groups.length > 0) yield groups;
    after = { hourStart: last.hourStart, hostId: last.hostId, gpuKey: last.gpuKey };
  }
}

/** lookupPrice, remembered per attribution and hour (a month asks the same question often). */
function pricer(rows: readonly PriceRow[]): (host: LedgerRecord) => PriceLookup {
  const memo = new Map<string, PriceLookup>();
  return (h) => {
    const key = [h.provider, h.instanceType, h.region, h.pricingModel, h.hourStart.getTime()].join(
      "\u0000",
    );
    let found = memo.get(key);
    if (!found) {
      found = lookupPrice(rows, { ...h, at: h.hourStart });
      memo.set(key, found);
    }
    return found;
  };
}

interface HostTally {
  hostId: string;
  instanceType: string;
  pricingModel: string;
  oldMicros: bigint;
  newMicros: bigint;
  hoursChanged: number;
}

interface Tally {
  oldTotal: bigint;
  newTotal: bigint;
  currency: string | null;
  hoursTotal: number;
  hoursChanged: number;
  newlyPriced: number;
  newlyUnpriced: number;
  unpricedAfter: number;
  rowsChanged: number;
  hosts: Map<string, HostTally>;
}

/** Re-prices every host-hour of [from, to); with `write`, saves the changed rows page by page. */
async function scanMonth(
  db: Db,
  bounds: { from: Date; to: Date },
  prices: readonly PriceRow[],
  opts: { write: boolean; pageRows: number },
): Promise<Tally> {
  const priceOf = pricer(prices);
  const t: Tally = {
    oldTotal: 0n,
    newTotal: 0n,
    currency: null,
    hoursTotal: 0,
    hoursChanged: 0,
    newlyPriced: 0,
    newlyUnpriced: 0,
    unpricedAfter: 0,
    rowsChanged: 0,
    hosts: new Map(),
  };
  for await (const groups of hostHourPages(db, bounds.from, bounds.to, opts.pageRows)) {
    const changes: { id: string; values: RepricedValues }[] = [];
    for (const rows of groups) {
      const host = rows.find((r) => r.gpuKey === HOST_KEY);
      // Every ledger hour has its host row; GPU rows without one are not a cost we can re-derive.
      if (!host) continue;
      const next = repriceHostHour(rows, priceOf(host));
      let hourChanged = false;
      let hostNew = host.costMicros;
      let hostPricedAfter = host.priced;
      rows.forEach((r, i) => {
        const v = next[i];
        if (!v) return;
        if (r.gpuKey === HOST_KEY) {
          hostNew = v.costMicros;
          hostPricedAfter = v.priced;
          t.currency ??= v.priced ? v.currency : null;
        }
        if (rowChanges(r, v)) {
          hourChanged = true;
          t.rowsChanged++;
          changes.push({ id: r.id, values: v });
        }
      });
      t.hoursTotal++;
      t.oldTotal += host.costMicros;
      t.newTotal += hostNew;
      if (!hostPricedAfter) t.unpricedAfter++;
      const hostKey = [host.hostId, host.instanceType, host.pricingModel].join("\u0000");
      const h = t.hosts.get(hostKey) ?? {
        hostId: host.hostId,
        instanceType: host.instanceType,
        pricingModel: host.pricingModel,
        oldMicros: 0n,
        newMicros: 0n,
        hoursChanged: 0,
      };
      h.oldMicros += host.costMicros;
      h.newMicros += hostNew;
      t.hosts.set(hostKey, h);
      if (!hourChanged) continue;
      h.hoursChanged++;
      t.hoursChanged++;
      if (!host.priced && hostPricedAfter) t.newlyPriced++;
      if (host.priced && !hostPricedAfter) t.newlyUnpriced++;
    }
    if (opts.write && changes.length > 0) await writeChanges(db, changes);
  }
  return t;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * One transaction per page. Rows getting identical values (GPUs of a host splitting evenly, busy
 * hours without idle cost) share one UPDATE … WHERE id IN (…), so a page is a few statements.
 */
async function writeChanges(
  db: Db,
  changes: readonly { id: string; values: RepricedValues }[],
): Promise<void> {
  const byValues = new Map<string, { values: RepricedValues; ids: string[] }>();
  for (const c of changes) {
    const v = c.values;
    const key = `${v.costMicros}|${v.idleCostMicros}|${v.priced}|${v.currency}`;
    const entry = byValues.get(key) ?? { values: v, ids: [] };
    entry.ids.push(c.id);
    byValues.set(key, entry);
  }
  await db.$transaction(
    [...byValues.values()].flatMap(({ values, ids }) =>
      chunks(ids, UPDATE_CHUNK).map((part) =>
        db.usageHour.updateMany({
          where: { id: { in: part } },
          data: {
            costMicros: values.costMicros,
            idleCostMicros: values.idleCostMicros,
            priced: values.priced,
            currency: values.currency,
          },
        }),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Preview and apply.

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

async function toResult(
  db: Db,
  month: string,
  t: Tally,
  flags: { closed: boolean; applied: boolean; reopened: boolean; appliedBy: string | null },
): Promise<RepriceResultDto> {
  const changed = [...t.hosts.values()].filter((h) => h.hoursChanged > 0);
  const names = new Map<string, string>();
  for (const ids of chunks([...new Set(changed.map((h) => h.hostId))], UPDATE_CHUNK)) {
    const hosts = await db.host.findMany({
      where: { id: { in: ids } },
      select: { id: true, hostname: true },
    });
    for (const h of hosts) names.set(h.id, h.hostname);
  }
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
    },
    rowsChanged: t.rowsChanged,
    hostsChanged: changed.length,
    hosts,
  };
}

/** What re-pricing `month` with today's catalogue would change; writes nothing. */
export async function previewReprice(
  db: Db,
  opts: { month: string; now: Date; pageRows?: number },
): Promise<RepriceResultDto> {
  const bounds = checkMonth(opts.month, opts.now);
  const tally = await scanMonth(db, bounds, await loadPriceRows(db), {
    write: false,
    pageRows: pageSize(opts.pageRows),
  });
  return toResult(db, opts.month, tally, {
    closed: bounds.closed,
    applied: false,
    reopened: false,
    appliedBy: null,
  });
}

/**
 * Re-prices `month` with today's catalogue, in one transaction per page of rows. Refused (409)
 * when the new total differs from `expectedNewTotalMicros` (the preview's: the catalogue or the
 * ledger changed since, so preview again), and for a closed month unless `reopen`. The check is a
 * full read-only pass before the first write, so a refusal writes nothing.
 */
export async function applyReprice(
  db: Db,
  opts: {
    month: string;
    now: Date;
    by: string;
    expectedNewTotalMicros: string | bigint;
    reopen?: boolean;
    pageRows?: number;
  },
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
  const prices = await loadPriceRows(db);
  const pageRows = pageSize(opts.pageRows);
  const check = await scanMonth(db, bounds, prices, { write: false, pageRows });
  if (check.newTotal !== expected) {
    throw new ConflictError(
      `prices or usage changed since the preview: the new total of ${opts.month} would be ` +
        `${formatMicros(check.newTotal)}, not ${formatMicros(expected)}; preview again`,
    );
  }
  const done = await scanMonth(db, bounds, prices, { write: true, pageRows });
  return toResult(db, opts.month, done, {
    closed: bounds.closed,
    applied: true,
    reopened: bounds.closed,
    appliedBy: opts.by,
  });
}
