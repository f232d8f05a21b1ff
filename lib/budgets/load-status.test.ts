import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { rebuildUsageDays } from "@/lib/ledger/usage-days.ts";
import { loadBudgetFigures, loadBudgetFiguresMany, type BudgetRow } from "./load-status.ts";

let db: Db;
const HOUR = 3600_000;
const NOV = Date.UTC(2026, 10, 1);
const now = new Date(Date.UTC(2026, 10, 3, 12));

function budget(
  id: string,
  scopeKind: string,
  scopeValue: string,
  amount = 50_000_000n,
): BudgetRow {
  return {
    id,
    name: id,
    scopeKind,
    scopeValue,
    amountMicros: amount,
    currency: "USD",
    thresholds: "[50,80,100]",
  };
}

async function hour(hostId: string, at: number, over: Record<string, string | bigint>) {
  await db.usageHour.create({
    data: {
      hourStart: new Date(at),
      hostId,
      gpuKey: "host",
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      pricingModel: "on_demand",
      team: "research",
      project: "llm",
      upSeconds: 3600,
      samples: 240,
      idleSeconds: 0,
      priced: true,
      costMicros: 1_000_001n,
      idleCostMicros: 7n,
      source: "test",
      ...over,
    },
  });
}

beforeAll(async () => {
  db = makeTestDb().db;
  const a = await db.host.create({ data: { hostname: "gpu-a" } });
  const b = await db.host.create({ data: { hostname: "gpu-b" } });
  for (let h = 0; h < 30; h++) {
    await hour(a.id, NOV + h * HOUR, { team: h < 10 ? "vision" : "research" });
    await hour(b.id, NOV + h * HOUR + 5 * HOUR, {
      provider: "gcp",
      project: "infer",
      costMicros: 2_500_000n,
    });
    // GPU rows would count money twice: never part of a budget
    await hour(a.id, NOV + h * HOUR, { gpuKey: "GPU-0", costMicros: 999n });
  }
  await hour(a.id, Date.UTC(2026, 9, 31, 23), { costMicros: 5n }); // October: outside the month
  await rebuildUsageDays(db); // budgets read the day roll-up lib/ledger keeps with the ledger
});

afterAll(async () => {
  await db.$disconnect();
});

describe("loadBudgetFiguresMany", () => {
  it("gives every budget the figures loadBudgetFigures gives it alone, in order", async () => {
    const budgets = [
      budget("fleet", "fleet", ""),
      budget("research", "team", "research"),
      budget("vision", "team", "vision", 5_000_000n),
      budget("nobody", "team", "nobody"),
      budget("llm", "project", "llm"),
      budget("infer", "project", "infer"),
      budget("gcp", "provider", "gcp"),
      budget("azure", "provider", "azure"),
    ];
    const many = await loadBudgetFiguresMany(db, budgets, now);
    const alone = await Promise.all(budgets.map((b) => loadBudgetFigures(db, b, now)));
    expect(many).toEqual(alone);
    // and the figures are the ledger's: research 20 hours of gpu-a and 30 of gpu-b, vision 10, nobody none
    expect(many[1]?.spendMicros).toBe(20n * 1_000_001n + 30n * 2_500_000n);
    expect(many[2]?.spendMicros).toBe(10n * 1_000_001n);
    expect(many[3]?.spendMicros).toBe(0n);
    expect(many[0]?.spendMicros).toBe(30n * 1_000_001n + 30n * 2_500_000n);
    expect(many[6]?.spendMicros).toBe(30n * 2_500_000n);
  });

  it("answers an empty list without reading the store", async () => {
    expect(await loadBudgetFiguresMany(db, [], now)).toEqual([]);
  });
});
