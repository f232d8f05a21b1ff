import type { Db } from "@/lib/db.ts";
import type { Prisma } from "@/lib/generated/prisma/client.ts";

// How much of a month's ledger is actual (re-priced from the imported bills, issue 26) rather than
// a list estimate. The ledger's cost of an hour on actuals is the billed effective cost, so every
// total, budget and forecast built on it already uses the actuals; this says how many hours that is.

export interface CostBasis {
  /** host-hours in the month (within the scope) */
  hours: number;
  /** of them, costed from the imported bills */
  actualHours: number;
  /** their cost (micro-dollars, part of the month's total) */
  actualMicros: bigint;
}

export async function costBasis(client: Db, where: Prisma.UsageHourWhereInput): Promise<CostBasis> {
  const hosts = { ...where, gpuKey: "host" };
  const [hours, actual] = await Promise.all([
    client.usageHour.count({ where: hosts }),
    client.usageHour.aggregate({
      where: { ...hosts, actualSource: { not: null } },
      _count: { _all: true },
      _sum: { costMicros: true },
    }),
  ]);
  return {
    hours,
    actualHours: actual._count._all,
    actualMicros: actual._sum.costMicros ?? 0n,
  };
}
