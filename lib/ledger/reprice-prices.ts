import "server-only";
import { HOUR_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { ACCOUNT_LABEL, type PriceRow } from "../pricing/types.ts";
import type { HostFacts } from "./reprice-store.ts";

// The prices a set-based re-pricing (reprice-sql.ts) joins the ledger to: every attribution group
// of the month (host, provider, instance type, region, pricing model) mapped to a price key (the
// attribution plus the host's account and zone, all lookupPrice looks at), and each price key's
// periods of constant price over the month, from lookupPrice itself at every hour start. So the
// SQL takes exactly the price reprice-store.ts's per-row pass takes for an hour, and the catalogue's
// rules (regions, sites, exchange rates, spot history) stay in one place.

/** An attribution group of the month's ledger and its price key. */
export interface HostGroup {
  hostId: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
}

/** A span [from, to) of one price key's hours at one price. */
export interface PricePeriod {
  key: number;
  from: Date;
  to: Date;
  priced: boolean;
  usdPerHourMicros: bigint;
  currency: string;
}

export interface PriceTable {
  groups: (HostGroup & { key: number })[];
  periods: PricePeriod[];
}

const groupId = (g: HostGroup) =>
  [g.hostId, g.provider, g.instanceType, g.region, g.pricingModel].join("\u0000");

/**
 * The month's attribution groups, from the day roll-up (kept in step with the ledger, a few rows
 * a host) or, when `fromLedger`, from the ledger's host rows themselves (the roll-up missed one).
 */
export async function monthGroups(
  db: Db,
  bounds: { from: Date; to: Date },
  fromLedger: boolean,
): Promise<HostGroup[]> {
  const by = ["hostId", "provider", "instanceType", "region", "pricingModel"] as const;
  const rows = fromLedger
    ? await db.usageHour.groupBy({
        by: [...by],
        where: { hourStart: { gte: bounds.from, lt: bounds.to }, gpuKey: "host" },
        orderBy: [{ hostId: "asc" }],
      })
    : await db.usageDay.groupBy({
        by: [...by],
        where: { day: { gte: bounds.from, lt: bounds.to } },
        orderBy: [{ hostId: "asc" }],
      });
  return rows.map((r) => ({
    hostId: r.hostId,
    provider: r.provider,
    instanceType: r.instanceType,
    region: r.region,
    pricingModel: r.pricingModel,
  }));
}

/**
 * Each group's price key and each key's price periods over [from, to), priced as reprice-store.ts
 * prices an hour (lookupPrice at the hour's start with the host's account and zone).
 */
export function priceTable(
  groups: readonly HostGroup[],
  prices: readonly PriceRow[],
  hostOf: (hostId: string) => HostFacts,
  bounds: { from: Date; to: Date },
): PriceTable {
  const keys = new Map<string, number>();
  const out: PriceTable = { groups: [], periods: [] };
  const seen = new Set<string>();
  for (const g of groups) {
    const id = groupId(g);
    if (seen.has(id)) continue;
    seen.add(id);
    const { labels, zone } = hostOf(g.hostId);
    const account = labels[ACCOUNT_LABEL];
    const k = [g.provider, g.instanceType, g.region, g.pricingModel, account ?? "", zone ?? ""];
    const name = k.join("\u0000");
    let key = keys.get(name);
    if (key === undefined) {
      key = keys.size;
      keys.set(name, key);
      out.periods.push(...periodsOf(key, g, account, zone, prices, bounds));
    }
    out.groups.push({ ...g, key });
  }
  return out;
}

function periodsOf(
  key: number,
  g: HostGroup,
  account: string | undefined,
  zone: string | null,
  prices: readonly PriceRow[],
  bounds: { from: Date; to: Date },
): PricePeriod[] {
  const labels: Record<string, string> = account === undefined ? {} : { [ACCOUNT_LABEL]: account };
  const out: PricePeriod[] = [];
  // from the hour that starts at or before `from` (a ledger hour starts on the hour)
  const first = Math.floor(bounds.from.getTime() / HOUR_MS) * HOUR_MS;
  for (let t = first; t < bounds.to.getTime(); t += HOUR_MS) {
    const p = lookupPrice(prices, { ...g, labels, zone, at: new Date(t) });
    const priced = p.priced;
    const micros = p.priced ? p.usdPerHourMicros : 0n;
    const currency = p.priced ? p.currency : "USD";
    const last = out.at(-1);
    if (
      last &&
      last.priced === priced &&
      last.usdPerHourMicros === micros &&
      last.currency === currency
    ) {
      last.to = new Date(t + HOUR_MS);
      continue;
    }
    out.push({
      key,
      from: new Date(t),
      to: new Date(t + HOUR_MS),
      priced,
      usdPerHourMicros: micros,
      currency,
    });
  }
  // the first and last periods reach past the month, so no hour of it falls between periods
  const head = out[0];
  const tail = out.at(-1);
  if (head) head.from = new Date(0);
  if (tail) tail.to = new Date("9999-12-31T00:00:00Z");
  return out;
}
