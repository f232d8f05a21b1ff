import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "@/lib/core/errors.ts";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { attribution } from "./reprice-fixtures.ts";
import { recoverRepriceRuns, STALE_RUN_MS } from "./reprice-run.ts";
import { applyReprice, previewReprice } from "./reprice.ts";

// A re-pricing run that cannot finish leaves the ledger as it was: the month's ledger changing
// while it stages (its prices are the snapshot the check read, so only usage can move the total),
// or the run abandoned under it (reprice-run.ts). The SIGKILL case is
// reprice-kill.integration.test.ts.

const HOUR_MS = 3_600_000;
const NOW = new Date("2026-03-10T00:00:00Z");

let db: Db;

beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => {
  await db.$disconnect();
});

/** `hours` unpriced host-hours (host row + 2 GPU rows) of `month`, then a $2/h price for them. */
async function seed(instanceType: string, month: string, hours: number): Promise<void> {
  const attr = attribution({ instanceType });
  const host = await db.host.create({ data: { hostname: instanceType, ...attr } });
  const start = Date.parse(`${month}-02T00:00:00Z`);
  for (let i = 0; i < hours; i++) {
    const common = {
      ...attr,
      hourStart: new Date(start + i * HOUR_MS),
      hostId: host.id,
      upSeconds: 3600,
      samples: 60,
      idleSeconds: 0,
      priced: false,
      costMicros: 0n,
      idleCostMicros: 0n,
      source: "test",
    };
    await db.usageHour.createMany({
      data: ["host", "GPU-a", "GPU-b"].map((gpuKey) => ({ ...common, gpuKey })),
    });
  }
  await db.priceEntry.create({
    data: {
      provider: attr.provider,
      instanceType,
      pricingModel: attr.pricingModel,
      gpuModel: "A100",
      gpuCount: 2,
      gpuMemoryBytes: 40n * 1024n ** 3n,
      usdPerHourMicros: 2_000_000n,
      effectiveFrom: new Date("2026-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2026-01",
      origin: "user",
    },
  });
}

const money = (instanceType: string) =>
  db.usageHour.findMany({
    where: { instanceType },
    orderBy: { id: "asc" },
    select: {
      id: true,
      costMicros: true,
      idleCostMicros: true,
      priced: true,
      currency: true,
    },
  });

const actions = async (month: string) =>
  (
    await db.auditEvent.findMany({
      where: { action: { startsWith: "pricing.reprice" }, target: month },
    })
  )
    .map((a) => a.action)
    .sort();

describe("a re-pricing run that cannot finish", () => {
  it("is abandoned when the month's ledger changes while it stages, and writes nothing", async () => {
    await seed("tc.midway", "2026-01", 6);
    const before = await money("tc.midway");
    const p = await previewReprice({ month: "2026-01", now: NOW }, db);
    expect(p.newTotalMicros).toBe("12000000");
    const host = await db.host.findFirstOrThrow({ where: { hostname: "tc.midway" } });
    const run = applyReprice(
      {
        month: "2026-01",
        now: NOW,
        by: "fin",
        expectedNewTotalMicros: p.newTotalMicros,
        reopen: true,
        pageRows: 3,
        // a late hour of the month is written (the ledger job backfilling) after the first page
        onStagedPage: async (page) => {
          if (page !== 1) return;
          await db.usageHour.create({
            data: {
              ...attribution({ instanceType: "tc.midway" }),
              hourStart: new Date("2026-01-31T23:00:00Z"),
              hostId: host.id,
              gpuKey: "host",
              upSeconds: 3600,
              samples: 60,
              idleSeconds: 0,
              priced: false,
              costMicros: 0n,
              idleCostMicros: 0n,
              source: "test",
            },
          });
        },
      },
      db,
    );
    await expect(run).rejects.toThrow(/preview again/);
    const ids = new Set(before.map((r) => r.id));
    expect((await money("tc.midway")).filter((r) => ids.has(r.id))).toEqual(before);
    expect(await db.repriceStage.count()).toBe(0);
    expect(await db.repriceRun.findFirst({ where: { month: "2026-01" } })).toMatchObject({
      state: "abandoned",
    });
    expect(await actions("2026-01")).toEqual([
      "pricing.reprice.abandoned",
      "pricing.reprice.started",
    ]);
  });

  it("is not swapped in once recovery has abandoned it", async () => {
    await seed("tc.stalled", "2026-02", 4);
    const before = await money("tc.stalled");
    const p = await previewReprice({ month: "2026-02", now: NOW }, db);
    const abandoned: string[] = [];
    const run = applyReprice(
      {
        month: "2026-02",
        now: NOW,
        by: "fin",
        expectedNewTotalMicros: p.newTotalMicros,
        reopen: true,
        pageRows: 3,
        // as if this run had stalled for longer than STALE_RUN_MS: the leader's job abandons it
        onStagedPage: async (page) => {
          if (page !== 1) return;
          const later = new Date(Date.now() + STALE_RUN_MS + 1000);
          abandoned.push(...(await recoverRepriceRuns(db, later)));
        },
      },
      db,
    );
    await expect(run).rejects.toThrow(ConflictError);
    await expect(run).rejects.toThrow(/abandoned/);
    expect(abandoned).toHaveLength(1);
    expect(await money("tc.stalled")).toEqual(before);
    expect(await db.repriceStage.count()).toBe(0);
    expect(await actions("2026-02")).toEqual([
      "pricing.reprice.abandoned",
      "pricing.reprice.started",
    ]);
    // and the month can be re-priced afterwards, all at once
    const done = await applyReprice(
      {
        month: "2026-02",
        now: NOW,
        by: "fin",
        expectedNewTotalMicros: p.newTotalMicros,
        reopen: true,
      },
      db,
    );
    expect(done).toMatchObject({ applied: true, newTotalMicros: "8000000", rowsChanged: 12 });
    expect((await money("tc.stalled")).every((r) => r.priced)).toBe(true);
  });
});
