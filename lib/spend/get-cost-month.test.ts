import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { getCostMonth } from "./get-cost-month.ts";
import { getMonthSpend } from "./get-month-spend.ts";

let db: Db;

const attribution = {
  provider: "aws",
  instanceType: "p4d.24xlarge",
  region: "us-east-1",
  pricingModel: "on_demand",
  team: "research",
  project: "llm",
};

async function hour(
  hostId: string,
  hourStart: Date,
  over: { cost: bigint; idle?: bigint; priced?: boolean; gpuKey?: string; team?: string },
) {
  await db.usageHour.create({
    data: {
      ...attribution,
      team: over.team ?? attribution.team,
      hourStart,
      hostId,
      gpuKey: over.gpuKey ?? "host",
      upSeconds: 3600,
      samples: 240,
      idleSeconds: 0,
      priced: over.priced ?? true,
      costMicros: over.cost,
      idleCostMicros: over.idle ?? 0n,
      source: "test",
    },
  });
}

beforeAll(async () => {
  db = makeTestDb().db;
  const a = await db.host.create({ data: { hostname: "gpu-a", ...attribution } });
  const b = await db.host.create({ data: { hostname: "dgx-a100", provider: "onprem" } });
  await db.budget.create({
    data: { name: "Fleet", scopeKind: "fleet", amountMicros: 100_000_000n, thresholds: "[50,80]" },
  });
  const start = Date.UTC(2026, 10, 1);
  // 5 days of hourly host rows for gpu-a in November, plus its GPU rows (not counted as cost)
  for (let h = 0; h < 5 * 24; h += 1) {
    const t = new Date(start + h * 3600_000);
    await hour(a.id, t, { cost: 1_000_001n, idle: 1n, team: h < 24 ? "vision" : "research" });
    await hour(a.id, t, { cost: 500_000n, gpuKey: "GPU-0" });
    await hour(a.id, t, { cost: 0n, gpuKey: "GPU-0:gi1" });
  }
  await hour(b.id, new Date(start), { cost: 0n, priced: false });
  await hour(a.id, new Date(Date.UTC(2026, 9, 31, 23)), { cost: 7n }); // October
});

afterAll(async () => {
  await db.$disconnect();
});

describe("getCostMonth", () => {
  it("sums the host ledger exactly and reconciles every breakdown", async () => {
    const now = new Date(Date.UTC(2026, 10, 5, 23, 30));
    const m = await getCostMonth("2026-11", { client: db, now, scope: null });
    expect(m.totalMicros).toBe((120n * 1_000_001n).toString());
    expect(m.idleMicros).toBe("120");
    expect(m.unpriced).toEqual({ hosts: 1, upSeconds: 3600 });
    expect(m.breakdowns.team.map((r) => [r.key, r.costMicros])).toEqual([
      ["research", (96n * 1_000_001n).toString()],
      ["vision", (24n * 1_000_001n).toString()],
    ]);
    for (const rows of Object.values(m.breakdowns)) {
      expect(rows.reduce((s, r) => s + BigInt(r.costMicros), 0n).toString()).toBe(m.totalMicros);
    }
    expect(m.instances.map((r) => [r.hostname, r.priced, r.gpuSeconds])).toEqual([
      ["gpu-a", "yes", 120 * 3600],
      ["dgx-a100", "no", 0],
    ]);
    expect(m.budget).toEqual({ name: "Fleet", amountMicros: "100000000", thresholds: [50, 80] });
    expect(m.forecast?.basisDays).toBe(5);
    expect(m.forecast?.micros).toBe(((120n * 1_000_001n * 30n) / 5n).toString());
    expect(m.trend.map((t) => [t.month, t.totalMicros])).toEqual([
      ["2026-06", "0"],
      ["2026-07", "0"],
      ["2026-08", "0"],
      ["2026-09", "0"],
      ["2026-10", "7"],
      ["2026-11", m.totalMicros],
    ]);
    expect(m.complete).toBe(false);
  });

  it("gives the current month's spend for the fleet headline", async () => {
    const spend = await getMonthSpend({
      client: db,
      now: new Date(Date.UTC(2026, 10, 5, 23)),
      scope: null,
    });
    expect(spend).toMatchObject({
      month: "2026-11",
      spendMicros: (120n * 1_000_001n).toString(),
      budgetMicros: "100000000",
    });
    expect(spend.forecastMicros).not.toBeNull();
  });

  it("returns an empty month without failing", async () => {
    const m = await getCostMonth("2025-01", {
      client: db,
      now: new Date(Date.UTC(2026, 10, 5)),
      scope: null,
    });
    expect(m).toMatchObject({ totalMicros: "0", instances: [], complete: true, forecast: null });
  });
});
