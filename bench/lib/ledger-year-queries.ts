// The month view's ledger reads as they were before the day roll-up (UsageDay, issue 27), kept
// here so the benchmark measures before and after on the same data: the same Prisma calls the old
// getCostMonth made over UsageHour (host groups, whole-GPU seconds per host, the 6-month trend,
// the cost basis). And the SQL of the heaviest two, before and after, for EXPLAIN.
import type { Db } from "../../lib/db.ts";
import { monthBounds, monthsEnding } from "../../lib/core/months.ts";

export async function ledgerMonthView(db: Db, month: string): Promise<number> {
  const { from, to } = monthBounds(month);
  const inMonth = { hourStart: { gte: from, lt: to } };
  const hosts = { ...inMonth, gpuKey: "host" };
  const [groups] = await Promise.all([
    db.usageHour.groupBy({
      by: [
        "hostId",
        "provider",
        "instanceType",
        "region",
        "pricingModel",
        "team",
        "project",
        "priced",
        "currency",
      ],
      where: hosts,
      _sum: { costMicros: true, idleCostMicros: true, upSeconds: true },
      _min: { hourStart: true },
      _max: { hourStart: true },
    }),
    db.usageHour.groupBy({
      by: ["hostId"],
      where: { ...inMonth, gpuKey: { not: "host" }, NOT: { gpuKey: { contains: ":gi" } } },
      _sum: { upSeconds: true },
    }),
    ...monthsEnding(month, 6).map((m) => {
      const b = monthBounds(m);
      return db.usageHour.aggregate({
        where: { gpuKey: "host", priced: true, hourStart: { gte: b.from, lt: b.to } },
        _sum: { costMicros: true, idleCostMicros: true },
      });
    }),
    db.usageHour.count({ where: hosts }),
    db.usageHour.aggregate({
      where: { ...hosts, actualSource: { not: null } },
      _count: { _all: true },
      _sum: { costMicros: true },
    }),
  ]);
  return groups.length;
}

const KEY = `"hostId", "provider", "instanceType", "region", "pricingModel", "team", "project",
  "priced", "currency"`;

/** [name, SQL] of the month view's two heaviest reads; $1, $2 are the month's bounds. */
export const PLANS = {
  before: [
    [
      "host groups (UsageHour)",
      `SELECT ${KEY}, SUM("costMicros"), SUM("idleCostMicros"), SUM("upSeconds"),
         MIN("hourStart"), MAX("hourStart")
       FROM "UsageHour" WHERE "hourStart" >= $1 AND "hourStart" < $2 AND "gpuKey" = 'host'
       GROUP BY ${KEY}`,
    ],
    [
      "GPU seconds per host (UsageHour)",
      `SELECT "hostId", SUM("upSeconds") FROM "UsageHour"
       WHERE "hourStart" >= $1 AND "hourStart" < $2 AND "gpuKey" <> 'host'
         AND "gpuKey" NOT LIKE '%:gi%'
       GROUP BY "hostId"`,
    ],
  ],
  after: [
    [
      "host groups (UsageDay)",
      `SELECT ${KEY}, SUM("costMicros"), SUM("idleCostMicros"), SUM("upSeconds"),
         MIN("firstHour"), MAX("lastHour")
       FROM "UsageDay" WHERE "day" >= $1 AND "day" < $2 AND "hostHours" > 0
       GROUP BY ${KEY}`,
    ],
    [
      "GPU seconds per host (UsageDay)",
      `SELECT "hostId", SUM("gpuSeconds") FROM "UsageDay"
       WHERE "day" >= $1 AND "day" < $2 AND "gpuSeconds" > 0
       GROUP BY "hostId"`,
    ],
  ],
} as const;
