import { DAY_MS } from "../core/time.ts";
import { formatMicros } from "../core/money.ts";
import { lookupPrice, priceRegionNote, type PricedLookup } from "../pricing/lookup.ts";
import { SPOT_SOURCE } from "../pricing/spot-history.ts";
import { ageInDays, isStale, isStaleFor } from "../pricing/stale.ts";
import type { PriceRow } from "../pricing/types.ts";
import type { PriceNotes } from "../zod/schemas/price-notes.ts";

// What stands behind a month's figures: the catalogue rows that priced its hours (stale ones,
// "*" fallbacks) and the hosts priced in another currency with the rates that converted them.
// The ledger keeps no row id, so the rows are found again the way the ledger found them: a
// lookup at the first hour of each day the host has hours in the month, and at its last hour
// (prices change on day boundaries in practice; a mid-day change is still caught by the next day).

export interface PricedGroup {
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  first: Date;
  last: Date;
}

function instants(first: Date, last: Date): Date[] {
  const out: Date[] = [];
  const start = Math.floor(first.getTime() / DAY_MS) * DAY_MS;
  for (let t = start; t <= last.getTime(); t += DAY_MS)
    out.push(new Date(Math.max(t, first.getTime())));
  out.push(last);
  return out;
}

export function priceNotes(
  groups: readonly PricedGroup[],
  rows: readonly PriceRow[],
  now: Date,
): PriceNotes {
  const used = new Map<string, PriceNotes["used"][number]>();
  const usedHosts = new Map<string, Set<string>>();
  const converted = new Map<string, PriceNotes["converted"][number]>();
  // A fleet's hosts share few attributions: each lookup is made once (10,000 GPUs: 1,389 hosts ×
  // 31 instants of November came down to a few hundred lookups).
  const lookups = new Map<string, ReturnType<typeof lookupPrice>>();
  for (const g of groups) {
    for (const at of instants(g.first, g.last)) {
      const lookupKey = [g.provider, g.instanceType, g.region, g.pricingModel, at.getTime()].join(
        "|",
      );
      let p = lookups.get(lookupKey);
      if (!p) {
        p = lookupPrice(rows, { ...g, at });
        lookups.set(lookupKey, p);
      }
      // an hour the spot price history priced took that hour's market price, not a catalogue row
      // (nothing to go stale; a new record every hour would list a row per day)
      if (!p.priced || p.source === SPOT_SOURCE) continue;
      const key = [
        g.provider,
        g.instanceType,
        p.region,
        g.pricingModel,
        p.effectiveFrom.getTime(),
      ].join("|");
      const u = used.get(key) ?? newUsed(g, p, at, now);
      const hosts = usedHosts.get(key) ?? new Set(u.hosts);
      if (!hosts.has(g.hostname)) {
        hosts.add(g.hostname);
        u.hosts.push(g.hostname);
      }
      usedHosts.set(key, hosts);
      const note = priceRegionNote(p.region, g.region);
      if (note && !u.fallbackFor.includes(g.region)) u.fallbackFor.push(g.region);
      used.set(key, u);
      if (p.exchangeRate && p.localCurrency) {
        const c = converted.get(g.hostname) ?? {
          hostname: g.hostname,
          currency: p.localCurrency,
          rates: [],
        };
        const r = p.exchangeRate;
        if (!c.rates.some((x) => x.effectiveFrom === r.effectiveFrom.toISOString())) {
          c.rates.push({
            usdPerUnit: r.usdPerUnit,
            effectiveFrom: r.effectiveFrom.toISOString(),
            sourceDate: r.sourceDate,
            source: r.source,
            stale: isStale(r.sourceDate, now),
          });
        }
        converted.set(g.hostname, c);
      }
    }
  }
  const all = [...used.values()].map((u) => ({ ...u, hosts: u.hosts.sort() }));
  all.sort(
    (a, b) =>
      a.provider.localeCompare(b.provider) ||
      a.instanceType.localeCompare(b.instanceType) ||
      a.effectiveFrom.localeCompare(b.effectiveFrom),
  );
  return {
    used: all,
    converted: [...converted.values()].sort((a, b) => a.hostname.localeCompare(b.hostname)),
  };
}

/** `at`: the first hour the row priced in the month (a row read long after it is stale too) */
function newUsed(g: PricedGroup, p: PricedLookup, at: Date, now: Date): PriceNotes["used"][number] {
  return {
    provider: g.provider,
    instanceType: g.instanceType,
    region: p.region,
    pricingModel: g.pricingModel,
    effectiveFrom: p.effectiveFrom.toISOString(),
    sourceDate: p.sourceDate ?? "",
    stale: isStaleFor(p.sourceDate ?? "", at, now),
    ageDays: ageInDays(p.sourceDate ?? "", now),
    localCurrency: p.localCurrency ?? null,
    localPerHour:
      p.localPerHourMicros === null || p.localPerHourMicros === undefined
        ? null
        : formatMicros(p.localPerHourMicros),
    fallbackFor: [],
    hosts: [],
  };
}
