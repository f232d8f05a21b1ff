import type { Db } from "../db.ts";
import { DAY_MS } from "../core/time.ts";

// The ledger rolled up per UTC day, host and attribution (UsageDay, issue 27): the costs page's
// month view reads ~30 rows a host instead of a month of GPU-hour rows. A (day, host) is always
// recomputed from its UsageHour rows (never incremented), in the transaction that wrote them: the
// ledger job's host-hour, the re-pricing swap. So the roll-up is the ledger's sum by construction,
// whatever was there before (usage-days.test.ts checks it after each).

/** The store the roll-up is written through: the client or an interactive transaction's. */
export type DayStore = Pick<Db, "usageHour" | "usageDay">;

const KEY = [
  "hostId",
  "provider",
  "instanceType",
  "region",
  "pricingModel",
  "team",
  "project",
  "priced",
  "currency",
] as const;

interface Key {
  hostId: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  priced: boolean;
  currency: string;
}

function keyOf(k: Key): string {
  return KEY.map((c) => String(k[c])).join("\u0000");
}

export function dayOf(t: Date): Date {
  return new Date(t.getTime() - (((t.getTime() % DAY_MS) + DAY_MS) % DAY_MS));
}

interface DayRow extends Key {
  day: Date;
  hostHours: number;
  upSeconds: number;
  costMicros: bigint;
  idleCostMicros: bigint;
  actualHours: number;
  actualCostMicros: bigint;
  gpuSeconds: number;
  firstHour: Date | null;
  lastHour: Date | null;
}

/** The roll-up rows of one UTC day (all hosts, or one), computed from the ledger. */
async function computeDay(store: DayStore, day: Date, hostId?: string): Promise<DayRow[]> {
  const where = {
    hourStart: { gte: day, lt: new Date(day.getTime() + DAY_MS) },
    ...(hostId === undefined ? {} : { hostId }),
  };
  const [hosts, actuals, gpus] = await Promise.all([
    store.usageHour.groupBy({
      by: [...KEY],
      where: { ...where, gpuKey: "host" },
      _count: { _all: true },
      _sum: { upSeconds: true, costMicros: true, idleCostMicros: true },
      _min: { hourStart: true },
      _max: { hourStart: true },
    }),
    store.usageHour.groupBy({
      by: [...KEY],
      where: { ...where, gpuKey: "host", actualSource: { not: null } },
      _count: { _all: true },
      _sum: { costMicros: true },
    }),
    // GPU-hours count whole GPUs; MIG slices (uuid "<gpu>:gi<n>") would count a GPU twice.
    store.usageHour.groupBy({
      by: [...KEY],
      where: { ...where, gpuKey: { not: "host" }, NOT: { gpuKey: { contains: ":gi" } } },
      _sum: { upSeconds: true },
    }),
  ]);
  const rows = new Map<string, DayRow>();
  const row = (k: Key): DayRow => {
    const id = keyOf(k);
    let r = rows.get(id);
    if (!r) {
      r = {
        hostId: k.hostId,
        provider: k.provider,
        instanceType: k.instanceType,
        region: k.region,
        pricingModel: k.pricingModel,
        team: k.team,
        project: k.project,
        priced: k.priced,
        currency: k.currency,
        day,
        hostHours: 0,
        upSeconds: 0,
        costMicros: 0n,
        idleCostMicros: 0n,
        actualHours: 0,
        actualCostMicros: 0n,
        gpuSeconds: 0,
        firstHour: null,
        lastHour: null,
      };
      rows.set(id, r);
    }
    return r;
  };
  for (const h of hosts) {
    const r = row(h);
    r.hostHours = h._count._all;
    r.upSeconds = h._sum.upSeconds ?? 0;
    r.costMicros = h._sum.costMicros ?? 0n;
    r.idleCostMicros = h._sum.idleCostMicros ?? 0n;
    r.firstHour = h._min.hourStart;
    r.lastHour = h._max.hourStart;
  }
  for (const a of actuals) {
    const r = row(a);
    r.actualHours = a._count._all;
    r.actualCostMicros = a._sum.costMicros ?? 0n;
  }
  for (const g of gpus) row(g).gpuSeconds = g._sum.upSeconds ?? 0;
  return [...rows.values()];
}

/** A day of a large fleet's ledger (10,000 GPUs: 240,000 GPU-hours) takes seconds to roll up. */
export const DAY_TX_TIMEOUT_MS = 5 * 60_000;

/** Rows per createMany: PostgreSQL takes at most 65,535 parameters a statement (19 per row). */
const WRITE_ROWS = 2_000;

/**
 * Recomputes the roll-up of every UTC day that [from, to) touches, for every host or one, from the
 * ledger. Run it in the transaction that changed those ledger rows.
 */
export async function refreshUsageDays(
  store: DayStore,
  range: { from: Date; to: Date; hostId?: string },
): Promise<number> {
  let written = 0;
  for (let t = dayOf(range.from).getTime(); t < range.to.getTime(); t += DAY_MS) {
    const day = new Date(t);
    const rows = await computeDay(store, day, range.hostId);
    await store.usageDay.deleteMany({
      where: { day, ...(range.hostId === undefined ? {} : { hostId: range.hostId }) },
    });
    for (let i = 0; i < rows.length; i += WRITE_ROWS) {
      await store.usageDay.createMany({ data: rows.slice(i, i + WRITE_ROWS) });
    }
    written += rows.length;
  }
  return written;
}

/**
 * Fills the roll-up for the whole ledger (a store that had a ledger before UsageDay existed, a
 * bulk-loaded demo or benchmark ledger); returns the rows written.
 */
export async function rebuildUsageDays(db: Db): Promise<number> {
  const span = await db.usageHour.aggregate({
    _min: { hourStart: true },
    _max: { hourStart: true },
  });
  const first = span._min.hourStart;
  const last = span._max.hourStart;
  if (!first || !last) return 0;
  let written = 0;
  // one day a transaction: a long backfill never holds SQLite's writer lock for long
  for (let t = dayOf(first).getTime(); t <= last.getTime(); t += DAY_MS) {
    const from = new Date(t);
    written += await db.$transaction(
      (tx) => refreshUsageDays(tx, { from, to: new Date(t + DAY_MS) }),
      { timeout: DAY_TX_TIMEOUT_MS, maxWait: DAY_TX_TIMEOUT_MS },
    );
  }
  return written;
}
