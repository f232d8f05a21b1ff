import "server-only";
import type { Db } from "../db.ts";

// Demo budgets sized from last month's real (simulated) spend, so the month in progress sits near
// its thresholds the way a real team's budget does: the fleet a little under, one team over.

function monthStart(d: Date, offset = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
}

function roundTo(micros: bigint, step: bigint): bigint {
  return ((micros + step / 2n) / step) * step;
}

export async function seedDemoBudgets(db: Db, now: Date): Promise<void> {
  const from = monthStart(now, -1);
  const to = monthStart(now);
  const rows = await db.usageHour.groupBy({
    by: ["team"],
    where: { gpuKey: "host", hourStart: { gte: from, lt: to } },
    _sum: { costMicros: true },
  });
  const thousand = 1_000_000_000n;
  const total = rows.reduce((s, r) => s + (r._sum.costMicros ?? 0n), 0n);
  const budgets = [
    {
      name: "GPU fleet",
      scopeKind: "fleet",
      scopeValue: "",
      amountMicros: roundTo((total * 105n) / 100n, thousand),
    },
  ];
  const sorted = [...rows].sort((a, b) =>
    Number((b._sum.costMicros ?? 0n) - (a._sum.costMicros ?? 0n)),
  );
  const [top, second] = sorted;
  if (top) {
    budgets.push({
      name: `Team ${top.team}`,
      scopeKind: "team",
      scopeValue: top.team,
      amountMicros: roundTo(((top._sum.costMicros ?? 0n) * 85n) / 100n, thousand),
    });
  }
  if (second) {
    budgets.push({
      name: `Team ${second.team}`,
      scopeKind: "team",
      scopeValue: second.team,
      amountMicros: roundTo(((second._sum.costMicros ?? 0n) * 120n) / 100n, thousand),
    });
  }
  for (const b of budgets) {
    if (b.amountMicros <= 0n) continue;
    await db.budget.upsert({
      where: { scopeKind_scopeValue: { scopeKind: b.scopeKind, scopeValue: b.scopeValue } },
      create: b,
      update: {},
    });
  }
}
