import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { updatePrice } from "@/lib/pricing/manage.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { applyReprice, previewReprice } from "./reprice.ts";
import { changePrices, HOSTS, HOURS, MONTH, NOW, seed, tc } from "./reprice-sql-fixtures.ts";

// The set-based re-pricing (reprice-fast.ts, reprice-sql.ts) against the per-row pass it replaces
// (reprice-store.ts, still what `pageRows` asks for): two stores get the same ledger (the ledger
// job's own writer) and the same catalogue change; previews must be equal, and after applying one
// set-based and the other per row, every ledger, holder and roll-up row must be equal to the
// micro-dollar. The ledger (reprice-sql-fixtures.ts) mixes price periods within the month, Tencent's CNY list at its rate,
// spot and reserved hosts, an unpriced type that gets a price, a partly-up hour, three GPUs (an
// uneven split), uuids whose order differs by collation, MIG slices, holders and hours on actuals.

let a: Db;
let b: Db;

beforeAll(async () => {
  a = makeTestDb().db;
  b = makeTestDb().db;
  for (const db of [a, b]) {
    await seed(db);
    await changePrices(db);
  }
}, 120_000);

afterAll(async () => {
  await Promise.all([a.$disconnect(), b.$disconnect()]);
});

const ledger = (db: Db) =>
  db.usageHour.findMany({
    orderBy: [{ hourStart: "asc" }, { hostId: "asc" }, { gpuKey: "asc" }],
    select: {
      id: true,
      hourStart: true,
      hostId: true,
      gpuKey: true,
      costMicros: true,
      idleCostMicros: true,
      priced: true,
      currency: true,
      actualSource: true,
      listCostMicros: true,
    },
  });

describe("set-based re-pricing", () => {
  it("previews what the per-row pass previews", async () => {
    const set = await previewReprice({ month: MONTH, now: NOW }, a);
    const rows = await previewReprice({ month: MONTH, now: NOW, pageRows: 1_000 }, a);
    expect(set).toEqual(rows);
    // every kind of hour moved: periods, spot, reserved, newly priced, MIG, actuals' estimates
    expect(set.hours).toMatchObject({ newlyPriced: expect.any(Number), actualAfter: 12 });
    expect(set.hours.newlyPriced).toBeGreaterThan(0);
    expect(set.hostsChanged).toBe(HOSTS.length - 2); // both Tencent hosts keep their price
  });

  it("writes the ledger, holders and roll-up the per-row pass writes, to the micro-dollar", async () => {
    const before = await ledger(a);
    const p = await previewReprice({ month: MONTH, now: NOW }, a);
    const opts = { month: MONTH, now: NOW, by: "fin", expectedNewTotalMicros: p.newTotalMicros };
    const set = await applyReprice(opts, a);
    const rows = await applyReprice({ ...opts, pageRows: 1_000 }, b);
    expect(set).toEqual(rows);
    const after = await ledger(a);
    expect(after.map(({ id: _, ...r }) => r)).toEqual(
      (await ledger(b)).map(({ id: _, ...r }) => r),
    );
    const changed = after.filter((r, i) => r.costMicros !== before[i]?.costMicros);
    expect(changed.length).toBeGreaterThan(HOURS);
    const holders = (db: Db) =>
      db.usageHourHolder.findMany({
        orderBy: { user: "asc" },
        select: { user: true, costMicros: true, idleCostMicros: true },
      });
    expect(await holders(a)).toEqual(await holders(b));
    const days = (db: Db) =>
      db.usageDay.findMany({
        orderBy: [
          { day: "asc" },
          { hostId: "asc" },
          { pricingModel: "asc" },
          { priced: "asc" },
          { currency: "asc" },
        ],
      });
    expect((await days(a)).length).toBeGreaterThan(HOSTS.length);
    expect(await days(a)).toEqual(await days(b));
    // and nothing is left to re-price
    expect((await previewReprice({ month: MONTH, now: NOW }, a)).hours.changed).toBe(0);
  });

  it("abandons a run whose month changed while it staged, and writes nothing", async () => {
    await updatePrice("p-2", { usdPerHour: "2.5" }, "fin", a);
    const before = await ledger(a);
    const p = await previewReprice({ month: MONTH, now: NOW }, a);
    expect(p.hours.changed).toBeGreaterThan(0);
    const run = applyReprice(
      {
        month: MONTH,
        now: NOW,
        by: "fin",
        expectedNewTotalMicros: p.newTotalMicros,
        // a late hour of the month is written (the ledger job backfilling) after the first page
        onStagedPage: async (page) => {
          if (page !== 1) return;
          await a.usageHour.create({
            data: {
              ...tc("tc.period", "spot"),
              team: "ml",
              project: "llm",
              hourStart: new Date("2026-10-31T23:00:00Z"),
              hostId: "h-spot",
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
      a,
    );
    await expect(run).rejects.toThrow(/preview again/);
    expect((await ledger(a)).filter((r) => before.some((x) => x.id === r.id))).toEqual(before);
    expect(await a.repriceStage.count()).toBe(0);
    const runs = await a.repriceRun.findMany({ orderBy: { startedAt: "desc" }, take: 1 });
    expect(runs[0]).toMatchObject({ state: "abandoned" });
  });
});
