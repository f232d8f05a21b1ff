import "server-only";
import type { Db } from "../db.ts";
import { lookupPrice, type PriceLookup } from "../pricing/lookup.ts";
import { ACCOUNT_LABEL, type PriceRow } from "../pricing/types.ts";
import { parseLabels } from "../core/labels.ts";
import { HOST_KEY, rowChanges, type RepricedValues, type StoredLedgerRow } from "./reprice-math.ts";
import { repriceFromSource, type RepriceSource } from "./reprice-source.ts";

// A month of the ledger for re-pricing, streamed in pages of rows and grouped into host-hours
// (reprice-math.ts prices each), with the month's old and new totals tallied as it goes.

export const ROW_SELECT = {
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
  actualSource: true,
  listCostMicros: true,
} as const;

export interface LedgerRecord extends StoredLedgerRow {
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

/**
 * lookupPrice, remembered per attribution, account, zone and hour (a month asks the same question
 * often). The host's labels and zone come from `hostOf`: its `cloud_account` picks the site's list
 * (Tencent's China site or international) and its zone a spot hour's market price, as when the
 * ledger priced the hour.
 */
export function pricer(
  rows: readonly PriceRow[],
  hostOf: (hostId: string) => HostFacts,
): (host: LedgerRecord) => PriceLookup {
  const memo = new Map<string, PriceLookup>();
  return (h) => {
    const { labels, zone } = hostOf(h.hostId);
    const key = [
      h.provider,
      h.instanceType,
      h.region,
      h.pricingModel,
      labels[ACCOUNT_LABEL] ?? "",
      zone ?? "",
      h.hourStart.getTime(),
    ].join("\u0000");
    let found = memo.get(key);
    if (!found) {
      found = lookupPrice(rows, { ...h, labels, zone, at: h.hourStart });
      memo.set(key, found);
    }
    return found;
  };
}

export interface HostFacts {
  labels: Record<string, string>;
  zone: string | null;
}

/**
 * Every host's labels (parsed once), for the account that picks a site's price list, and its
 * zone, for a spot hour's market price (spot price history), as when the ledger priced the hour.
 */
export async function hostLabels(db: Db): Promise<(hostId: string) => HostFacts> {
  const hosts = await db.host.findMany({ select: { id: true, labels: true, zone: true } });
  const byId = new Map(hosts.map((h) => [h.id, { labels: parseLabels(h.labels), zone: h.zone }]));
  return (id) => byId.get(id) ?? { labels: {}, zone: null };
}

export interface HostTally {
  hostId: string;
  instanceType: string;
  pricingModel: string;
  oldMicros: bigint;
  newMicros: bigint;
  hoursChanged: number;
}

export interface Tally {
  oldTotal: bigint;
  newTotal: bigint;
  currency: string | null;
  hoursTotal: number;
  hoursChanged: number;
  newlyPriced: number;
  newlyUnpriced: number;
  unpricedAfter: number;
  /** host-hours whose cost is an actual (from the imported bills) after the re-pricing */
  actualAfter: number;
  rowsChanged: number;
  hosts: Map<string, HostTally>;
}

/** A ledger row's new values. */
export interface RowChange {
  id: string;
  values: RepricedValues;
}

/**
 * Re-prices every host-hour of [from, to) and tallies the change; with `onPage`, hands it each
 * page's changed rows (after the page is tallied, so a hook sees the page boundary).
 */
export async function scanMonth(
  db: Db,
  bounds: { from: Date; to: Date },
  prices: readonly PriceRow[],
  opts: {
    pageRows: number;
    source: RepriceSource;
    onPage?: (changes: RowChange[]) => Promise<void>;
  },
): Promise<Tally> {
  const priceOf = pricer(prices, await hostLabels(db));
  const t = newTally();
  for await (const groups of hostHourPages(db, bounds.from, bounds.to, opts.pageRows)) {
    const changes: RowChange[] = [];
    for (const rows of groups) tallyHour(t, rows, opts.source, priceOf, changes);
    if (opts.onPage) await opts.onPage(changes);
  }
  return t;
}

export function newTally(): Tally {
  return {
    oldTotal: 0n,
    newTotal: 0n,
    currency: null,
    hoursTotal: 0,
    hoursChanged: 0,
    newlyPriced: 0,
    newlyUnpriced: 0,
    unpricedAfter: 0,
    actualAfter: 0,
    rowsChanged: 0,
    hosts: new Map(),
  };
}

/** Re-prices one host-hour's rows into `t`, pushing its changed rows onto `changes`. */
export function tallyHour(
  t: Tally,
  rows: LedgerRecord[],
  source: RepriceSource,
  priceOf: (host: LedgerRecord) => PriceLookup,
  changes: RowChange[],
): void {
  const host = rows.find((r) => r.gpuKey === HOST_KEY);
  // Every ledger hour has its host row; GPU rows without one are not a cost we can re-derive.
  if (!host) return;
  const next = repriceFromSource(rows, source, () => priceOf(host));
  let hourChanged = false;
  let hostNew = host.costMicros;
  let hostPricedAfter = host.priced;
  let hostActualAfter = host.actualSource !== null;
  rows.forEach((r, i) => {
    const v = next[i];
    if (!v) return;
    if (r.gpuKey === HOST_KEY) {
      hostNew = v.costMicros;
      hostPricedAfter = v.priced;
      hostActualAfter = v.actualSource !== null;
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
  if (hostActualAfter) t.actualAfter++;
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
  if (!hourChanged) return;
  h.hoursChanged++;
  t.hoursChanged++;
  if (!host.priced && hostPricedAfter) t.newlyPriced++;
  if (host.priced && !hostPricedAfter) t.newlyUnpriced++;
}

/** Ids per statement (… WHERE id IN (…)), well under SQLite's and PostgreSQL's parameter limits. */
export const ID_CHUNK = 500;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Host names by id, for a preview's list of hosts. */
export async function hostnames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const part of chunks([...new Set(ids)], ID_CHUNK)) {
    const hosts = await db.host.findMany({
      where: { id: { in: part } },
      select: { id: true, hostname: true },
    });
    for (const h of hosts) names.set(h.id, h.hostname);
  }
  return names;
}
