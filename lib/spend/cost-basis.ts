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

export async function costBasis(client: Db, where: Prisma.UsageDayWhereInput): Promise<CostBasis> {
  const sums = await client.usageDay.aggregate({
    where,
    _sum: { hostHours: true, actualHours: true, actualCostMicros: true },
  });
  return {
    hours: sums._sum.hostHours ?? 0,
    actualHours: sums._sum.actualHours ?? 0,
    actualMicros: sums._sum.actualCostMicros ?? 0n,
  };
}
