import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { ledgerScopeWhere } from "@/lib/spend/scope-where.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import { lookupPrice } from "@/lib/pricing/lookup.ts";
import type { PriceRow } from "@/lib/pricing/types.ts";
import type { FocusRow } from "./columns.ts";
import {
  buildFocusRows,
  type FocusContext,
  type Granularity,
  type HostFacts,
  type LedgerHour,
} from "./rows.ts";

// Reads the ledger for a FOCUS export one UTC day at a time (hourly rows: one hour at a time), so a
// month never sits in memory at once: each batch is two queries and one batch of rows.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface FocusRange {
  /** first instant, 00:00 UTC of a day */
  from: Date;
  /** exclusive end, 00:00 UTC of a later day */
  to: Date;
}

export interface FocusExport {
  /** priced ledger hours have a cost; unpriced ones (no catalogue price) are left out and counted */
  unpriced: { hostHours: number; upSeconds: number };
  batches(granularity: Granularity): AsyncGenerator<FocusRow[]>;
}

/** A host's labels as strings (the column holds JSON written by the collector). */
export function parseHostLabels(json: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {};
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean")
      out[k] = String(v);
  }
  return out;
}

function priceContext(rows: readonly PriceRow[]) {
  const gpuCounts = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.provider.trim().toLowerCase()}|${r.instanceType.trim().toLowerCase()}`;
    if (!gpuCounts.has(key)) gpuCounts.set(key, r.gpuCount);
  }
  const cache = new Map<string, bigint | null>();
  return {
    catalogueGpuCount: (provider: string, instanceType: string) =>
      gpuCounts.get(`${provider.trim().toLowerCase()}|${instanceType.trim().toLowerCase()}`) ??
      null,
    onDemandPrice: (h: LedgerHour): bigint | null => {
      const key = [h.provider, h.instanceType, h.region, h.currency, h.hourStart.getTime()].join(
        "|",
      );
      let price = cache.get(key);
      if (price === undefined) {
        const p = lookupPrice(rows, { ...h, pricingModel: "on_demand", at: h.hourStart });
        price = p.priced && p.currency === h.currency ? p.usdPerHourMicros : null;
        cache.set(key, price);
      }
      return price;
    },
    /** lookups are per hour: forget each day's once it is done */
    clear: () => cache.clear(),
  };
}

async function ledgerDay(
  client: Db,
  from: Date,
  to: Date,
  scope: TeamScope,
): Promise<LedgerHour[]> {
  const scoped = ledgerScopeWhere(scope);
  const hourStart = { gte: from, lt: to };
  const [hosts, gpus] = await Promise.all([
    client.usageHour.findMany({
      where: { hourStart, gpuKey: "host", priced: true, ...scoped },
      select: {
        hostId: true,
        hourStart: true,
        provider: true,
        instanceType: true,
        region: true,
        pricingModel: true,
        team: true,
        project: true,
        currency: true,
        upSeconds: true,
        costMicros: true,
        idleCostMicros: true,
        actualSource: true,
        listCostMicros: true,
        gpuModel: true,
        utilMean: true,
      },
      orderBy: [{ hourStart: "asc" }, { hostId: "asc" }],
    }),
    // whole GPUs only: a MIG slice (parentKey set, uuid "<gpu>:gi<n>") is part of one
    client.usageHour.groupBy({
      by: ["hostId", "hourStart"],
      where: {
        hourStart,
        gpuKey: { not: "host" },
        parentKey: null,
        NOT: { gpuKey: { contains: ":gi" } },
        ...scoped,
      },
      _count: { _all: true },
      _sum: { upSeconds: true },
    }),
  ]);
  const gpuByHour = new Map(gpus.map((g) => [`${g.hostId}|${g.hourStart.getTime()}`, g] as const));
  return hosts.map((h) => {
    const g = gpuByHour.get(`${h.hostId}|${h.hourStart.getTime()}`);
    return { ...h, gpuCount: g?._count._all ?? 0, gpuSeconds: g?._sum.upSeconds ?? 0 };
  });
}

/**
 * Prepares a FOCUS export of the ledger over [from, to) within `scope` (a team-limited user's
 * teams, by the host's team now, as the costs page and its CSV do).
 */
export async function prepareFocusExport(
  range: FocusRange,
  { client = defaultDb, scope = null }: { client?: Db; scope?: TeamScope } = {},
): Promise<FocusExport> {
  const { from, to } = range;
  if (from.getTime() % DAY_MS !== 0 || to.getTime() % DAY_MS !== 0 || to <= from) {
    throw new RangeError(
      `a FOCUS export covers whole UTC days: ${from.toISOString()}–${to.toISOString()}`,
    );
  }
  const [hostRows, priceRows, unpriced] = await Promise.all([
    client.host.findMany({
      where: scope === null ? {} : { team: { in: [...scope] } },
      select: { id: true, hostname: true, owner: true, labels: true },
    }),
    loadPriceRows(client),
    client.usageHour.aggregate({
      where: {
        hourStart: { gte: from, lt: to },
        gpuKey: "host",
        priced: false,
        ...ledgerScopeWhere(scope),
      },
      _count: { _all: true },
      _sum: { upSeconds: true },
    }),
  ]);
  const hosts = new Map<string, HostFacts>(
    hostRows.map((h) => [
      h.id,
      { hostname: h.hostname, owner: h.owner, labels: parseHostLabels(h.labels) },
    ]),
  );
  const prices = priceContext(priceRows);
  const ctx: FocusContext = { hosts, ...prices };
  return {
    unpriced: { hostHours: unpriced._count._all, upSeconds: unpriced._sum.upSeconds ?? 0 },
    async *batches(granularity) {
      // Hourly rows come an hour at a time: a day of them at 10,000 GPUs (33,000 host-hours) did
      // not fit a 192 MiB heap (bench/ledger-year.ts). A daily row sums its host's whole day. The
      // rows are sorted by period first, so the batches in order are the file in order.
      const step = granularity === "hourly" ? HOUR_MS : DAY_MS;
      for (let t = from.getTime(); t < to.getTime(); t += step) {
        const hours = await ledgerDay(client, new Date(t), new Date(t + step), scope);
        prices.clear();
        yield buildFocusRows(hours, ctx, granularity);
      }
    },
  };
}
