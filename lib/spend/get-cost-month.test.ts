import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { roundToUnit } from "@/lib/core/money.ts";
import { BREAKDOWN_DIMENSIONS, costMonthSchema } from "@/lib/zod/schemas/costs.ts";
import { costsCsv } from "./csv.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { getCostMonth } from "./get-cost-month.ts";
import { getMonthSpend } from "./get-month-spend.ts";
import { rebuildUsageDays } from "@/lib/ledger/usage-days.ts";

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
  await rebuildUsageDays(db); // the rows went in past the ledger's writer
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
    // the label is the formula's own numbers: $120.00 × 30 d ÷ 5 d = $720.00
    expect(m.forecastNote).toBe("Month-to-date $120.00 over 5 d of data × 30 d ÷ 5 d.");
    expect(m.forecast?.basis).toEqual({
      monthToDateMicros: m.totalMicros,
      dataFrom: "2026-11-01T00:00:00.000Z",
      asOf: "2026-11-06T00:00:00.000Z",
      dataSeconds: 5 * 86_400,
      remainingSeconds: 25 * 86_400,
      monthSeconds: 30 * 86_400,
    });
    expect(m.coverageNote).toBeNull();
    expect(costMonthSchema.safeParse(m).success).toBe(true);
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

describe("displayed money adds up (a seeded September with half-cent rows)", () => {
  // Three hosts in three teams, each at $x.005 and $0.005 idle: rounded one by one the rows show
  // $9.03 and $0.03 against totals of $9.02 and $0.02 (rounded once).
  beforeAll(async () => {
    const rows = [
      { name: "sep-x", team: "a", hours: [1_002_500n, 1_002_500n], idle: 2_500n },
      { name: "sep-y", team: "b", hours: [3_005_000n], idle: 5_000n },
      { name: "sep-z", team: "c", hours: [4_005_000n], idle: 5_000n },
    ];
    for (const r of rows) {
      const h = await db.host.create({ data: { hostname: r.name, ...attribution, team: r.team } });
      for (const [i, cost] of r.hours.entries()) {
        // data starts on the 3rd at 18:00: the month is closed but not fully covered
        await hour(h.id, new Date(Date.UTC(2026, 8, 3, 18 + i)), {
          cost,
          idle: r.idle,
          team: r.team,
        });
      }
    }
    await rebuildUsageDays(db);
  });

  it("rounds every breakdown and the instance table to the totals rounded once", async () => {
    const m = await getCostMonth("2026-09", {
      client: db,
      now: new Date(Date.UTC(2026, 10, 5)),
      scope: null,
    });
    expect(costMonthSchema.safeParse(m).success).toBe(true);
    expect([m.totalMicros, m.displayTotalMicros]).toEqual(["9015000", "9020000"]);
    expect([m.idleMicros, m.displayIdleMicros]).toEqual(["15000", "20000"]);
    const sum = (xs: readonly string[]) => xs.reduce((s, x) => s + BigInt(x), 0n);
    const tables = [...BREAKDOWN_DIMENSIONS.map((d) => m.breakdowns[d]), m.instances];
    for (const rows of tables) {
      expect(sum(rows.map((r) => r.displayCostMicros))).toBe(BigInt(m.displayTotalMicros));
      expect(sum(rows.map((r) => r.displayIdleMicros))).toBe(BigInt(m.displayIdleMicros));
      for (const r of rows) {
        const moved = BigInt(r.displayCostMicros) - BigInt(r.costMicros);
        expect(moved > -10_000n && moved < 10_000n).toBe(true);
      }
    }
    // rounding each row on its own would not have added up
    const naive = sum(m.breakdowns.team.map((r) => roundToUnit(BigInt(r.costMicros)).toString()));
    expect(naive).toBe(9_030_000n);
    // largest remainder: the tied half-cents go to the rows shown first (largest cost first)
    expect(m.breakdowns.team.map((r) => [r.key, r.displayCostMicros, r.displayIdleMicros])).toEqual(
      [
        ["c", "4010000", "10000"],
        ["b", "3010000", "10000"],
        ["a", "2000000", "0"],
      ],
    );
    expect(m.breakdowns.provider).toMatchObject([
      { displayCostMicros: "9020000", displayIdleMicros: "20000" },
    ]);
  });

  it("labels the closed month by the data it has, not as final", async () => {
    const m = await getCostMonth("2026-09", {
      client: db,
      now: new Date(Date.UTC(2026, 10, 5)),
      scope: null,
    });
    expect(m.complete).toBe(true);
    expect(m.coverageNote).toBe("data from Sep 3 18:00 UTC until Sep 3 20:00 UTC");
    expect(m.forecastNote).not.toMatch(/final/);
    expect(m.forecastNote).toContain("data from Sep 3 18:00 UTC");
  });

  it("exports a CSV whose rounded rows sum to its total row", async () => {
    const m = await getCostMonth("2026-09", {
      client: db,
      now: new Date(Date.UTC(2026, 10, 5)),
      scope: null,
    });
    const lines = costsCsv(m.instances, m.currency).trim().split("\n");
    const header = (lines[0] ?? "").split(",");
    const cells = lines.slice(1).map((l) => l.split(","));
    const col = (name: string) => header.indexOf(name);
    const total = cells.at(-1) ?? [];
    expect(total[col("priced")]).toBe("total");
    expect([total[col("cost")], total[col("cost_rounded")]]).toEqual(["9.015000", "9.02"]);
    const cents = (xs: (string | undefined)[]) =>
      xs.reduce((s, x) => s + BigInt((x ?? "0").replace(".", "")), 0n);
    const rows = cells.slice(0, -1);
    expect(cents(rows.map((c) => c[col("cost_rounded")]))).toBe(902n);
    expect(cents(rows.map((c) => c[col("idle_cost_rounded")]))).toBe(
      cents([total[col("idle_cost_rounded")]]),
    );
  });
});
