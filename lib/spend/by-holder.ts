import "server-only";
import { pushTo } from "../core/group.ts";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { roundPartsToTotal, roundToUnit, sumMicros } from "@/lib/core/money.ts";
import { monthBounds } from "@/lib/core/months.ts";
import { HOUR_MS } from "@/lib/core/time.ts";
import type { HolderSpend, HolderSpendRow } from "@/lib/zod/schemas/holder-spend.ts";
import { ledgerScopeWhere } from "./scope-where.ts";

// Spend and idle spend by holder for one month, from the ledger's UsageHourHolder rows (written by
// lib/ledger with each GPU-hour). A person is a user, else a pod namespace, else a Slurm account.
// The "not held" row is the rest of the month's total (time no process named a holder), so the
// rows add up to the total, and the displayed cents by largest remainder (roundPartsToTotal).

/** How holders are shown to this viewer (lib/settings/holder-names.ts passes its namer's `person`). */
export type NamePerson = (name: string) => string;

type PersonFields = { user: string | null; namespace: string | null; account: string | null };

/** The person a holder row belongs to: "alice", "namespace ml", "account physics". */
export function personOf(r: PersonFields, name: NamePerson = (n) => n): string {
  if (r.user !== null) return name(r.user);
  if (r.namespace !== null) return `namespace ${name(r.namespace)}`;
  if (r.account !== null) return `account ${name(r.account)}`;
  return "unattributed";
}

export const NOT_HELD = "not held (no process named a holder)";

interface IdleHour {
  hostId: string;
  gpuKey: string;
  hourStart: Date;
  idleSeconds: number;
}

/** Longest idle time on one GPU over consecutive hours (idle seconds summed over the run). */
export function longestIdleStretch(hours: readonly IdleHour[]): number {
  const byGpu = new Map<string, IdleHour[]>();
  for (const h of hours) {
    const k = `${h.hostId}|${h.gpuKey}`;
    pushTo(byGpu, k, h);
  }
  let best = 0;
  for (const list of byGpu.values()) {
    list.sort((a, b) => a.hourStart.getTime() - b.hourStart.getTime());
    let run = 0;
    let prev: number | null = null;
    for (const h of list) {
      const t = h.hourStart.getTime();
      const contiguous = prev !== null && t - prev === HOUR_MS;
      run = h.idleSeconds > 0 ? (contiguous ? run : 0) + h.idleSeconds : 0;
      best = Math.max(best, run);
      prev = t;
    }
  }
  return best;
}

export async function getHolderSpend(
  month: string,
  opts: { client?: Db; scope: TeamScope; name?: NamePerson; pseudonymous?: boolean },
): Promise<HolderSpend> {
  const client = opts.client ?? defaultDb;
  const { from, to } = monthBounds(month);
  const hourStart = { gte: from, lt: to };
  const where = { hourStart, ...ledgerScopeWhere(opts.scope) };
  // the host's team now, as every ledger read (scope-where.ts)
  const holderWhere =
    opts.scope === null ? { hourStart } : { hourStart, host: { team: { in: [...opts.scope] } } };
  const [total, currencyRow, groups, idleHours] = await Promise.all([
    client.usageHour.aggregate({
      where: { ...where, gpuKey: "host", priced: true },
      _sum: { costMicros: true, idleCostMicros: true },
    }),
    client.usageHour.findFirst({
      where: { ...where, gpuKey: "host", priced: true },
      select: { currency: true },
    }),
    client.usageHourHolder.groupBy({
      by: ["user", "namespace", "account"],
      where: holderWhere,
      _sum: { costMicros: true, idleCostMicros: true, idleSeconds: true, sharePpm: true },
    }),
    client.usageHourHolder.findMany({
      where: { ...holderWhere, idleSeconds: { gt: 0 } },
      select: {
        user: true,
        namespace: true,
        account: true,
        hostId: true,
        gpuKey: true,
        hourStart: true,
        idleSeconds: true,
      },
    }),
  ]);
  const name = opts.name ?? ((n: string) => n);
  const idleByPerson = new Map<string, IdleHour[]>();
  for (const h of idleHours) {
    const p = personOf(h, name);
    pushTo(idleByPerson, p, h);
  }
  // pseudonyms can never collide in practice, but groups are merged by shown name all the same
  const byPerson = new Map<string, { cost: bigint; idle: bigint; idleS: number; ppm: number }>();
  for (const g of groups) {
    const p = personOf(g, name);
    const acc = byPerson.get(p) ?? { cost: 0n, idle: 0n, idleS: 0, ppm: 0 };
    acc.cost += g._sum.costMicros ?? 0n;
    acc.idle += g._sum.idleCostMicros ?? 0n;
    acc.idleS += g._sum.idleSeconds ?? 0;
    acc.ppm += g._sum.sharePpm ?? 0;
    byPerson.set(p, acc);
  }
  const totalMicros = total._sum.costMicros ?? 0n;
  const idleMicros = total._sum.idleCostMicros ?? 0n;
  const people = [...byPerson.entries()].sort(([a], [b]) => a.localeCompare(b));
  const heldCost = sumMicros(people.map(([, a]) => a.cost));
  const heldIdle = sumMicros(people.map(([, a]) => a.idle));
  const rest = (t: bigint, held: bigint) => (t > held ? t - held : 0n);
  const costs = [...people.map(([, a]) => a.cost), rest(totalMicros, heldCost)];
  const idles = [...people.map(([, a]) => a.idle), rest(idleMicros, heldIdle)];
  const shownCost = roundPartsToTotal(costs);
  const shownIdle = roundPartsToTotal(idles);
  const rows: HolderSpendRow[] = people.map(([holder, a], i) => ({
    holder,
    held: true,
    gpuHours: Math.round(a.ppm / 10_000) / 100,
    costMicros: a.cost.toString(),
    idleGpuHours: Math.round(a.idleS / 36) / 100,
    idleMicros: a.idle.toString(),
    longestIdleSeconds: longestIdleStretch(idleByPerson.get(holder) ?? []),
    displayCostMicros: (shownCost[i] ?? 0n).toString(),
    displayIdleMicros: (shownIdle[i] ?? 0n).toString(),
  }));
  const n = people.length;
  rows.push({
    holder: NOT_HELD,
    held: false,
    gpuHours: 0,
    costMicros: (costs[n] ?? 0n).toString(),
    idleGpuHours: 0,
    idleMicros: (idles[n] ?? 0n).toString(),
    longestIdleSeconds: 0,
    displayCostMicros: (shownCost[n] ?? 0n).toString(),
    displayIdleMicros: (shownIdle[n] ?? 0n).toString(),
  });
  return {
    month,
    currency: currencyRow?.currency ?? "USD",
    pseudonymous: opts.pseudonymous ?? false,
    totalMicros: totalMicros.toString(),
    idleMicros: idleMicros.toString(),
    displayTotalMicros: roundToUnit(totalMicros).toString(),
    displayIdleMicros: roundToUnit(idleMicros).toString(),
    rows,
  };
}
