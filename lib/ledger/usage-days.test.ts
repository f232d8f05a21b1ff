import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import type { HostSample, SamplesByHost } from "../metrics/source.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { GIB } from "./ledger-fixtures.ts";
import { computeLedgerHour, writeLedgerHour } from "./job.ts";
import { applyReprice, previewReprice } from "./reprice.ts";
import { dayOf, rebuildUsageDays } from "./usage-days.ts";

// The day roll-up (UsageDay, issue 27) stays exactly the ledger's sum: after the ledger job writes
// hours (across a UTC day boundary), after a re-pricing is applied, and when rebuilt from rows
// written past the ledger's writer. The expected roll-up is summed here from UsageHour, row by row.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const NOW = new Date("2026-11-03T12:00:00Z");

let db: Db;
let hostId: string;
let priceId: string;

const attribution = {
  provider: "testcloud",
  instanceType: "tc.2gpu",
  region: "r1",
  pricingModel: "on_demand",
  team: "ml",
  project: "llm",
};

function hourSamples(hourStart: Date, util: number): HostSample[] {
  return Array.from({ length: 60 }, (_, i) => ({
    t: new Date(hourStart.getTime() + i * 60_000),
    up: i < 45 || util > 0.5, // a quiet hour is up 45 minutes only
    gpus: ["GPU-a", "GPU-b"].map((uuid, g) => ({
      uuid,
      model: "A100",
      util: g === 0 ? util : 0,
      memUsedBytes: g === 0 ? 8 * GIB : 0,
      memTotalBytes: 40 * GIB,
      processes: g === 0 ? 1 : 0,
    })),
  }));
}

/** The roll-up as it must be: every ledger row summed into its (day, host, attribution) group. */
async function expectedDays() {
  const rows = await db.usageHour.findMany();
  const days = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    const key = [dayOf(r.hourStart).toISOString(), r.hostId, r.priced, r.currency].join("|");
    const d = days.get(key) ?? {
      day: dayOf(r.hourStart),
      hostId: r.hostId,
      provider: r.provider,
      instanceType: r.instanceType,
      region: r.region,
      pricingModel: r.pricingModel,
      team: r.team,
      project: r.project,
      priced: r.priced,
      currency: r.currency,
      hostHours: 0,
      upSeconds: 0,
      costMicros: 0n,
      idleCostMicros: 0n,
      actualHours: 0,
      actualCostMicros: 0n,
      gpuSeconds: 0,
      firstHour: null,
      lastHour: null,
    };
    const n = (k: string) => d[k] as number;
    if (r.gpuKey === "host") {
      d.hostHours = n("hostHours") + 1;
      d.upSeconds = n("upSeconds") + r.upSeconds;
      d.costMicros = (d.costMicros as bigint) + r.costMicros;
      d.idleCostMicros = (d.idleCostMicros as bigint) + r.idleCostMicros;
      if (r.actualSource !== null) {
        d.actualHours = n("actualHours") + 1;
        d.actualCostMicros = (d.actualCostMicros as bigint) + r.costMicros;
      }
      const first = d.firstHour as Date | null;
      const last = d.lastHour as Date | null;
      if (!first || r.hourStart < first) d.firstHour = r.hourStart;
      if (!last || r.hourStart > last) d.lastHour = r.hourStart;
    } else if (!r.gpuKey.includes(":gi")) d.gpuSeconds = n("gpuSeconds") + r.upSeconds;
    days.set(key, d);
  }
  return [...days.values()].sort(byDay);
}

const byDay = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  (a.day as Date).getTime() - (b.day as Date).getTime() || Number(a.priced) - Number(b.priced);

const storedDays = async () =>
  (await db.usageDay.findMany()).sort(byDay) as unknown as Record<string, unknown>[];

/** Writes `n` hours from `first` through the ledger job's own compute and write. */
async function ledgerHours(first: Date, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const hourStart = new Date(first.getTime() + i * HOUR_MS);
    const samples: SamplesByHost = new Map([[hostId, hourSamples(hourStart, i % 3 ? 0.9 : 0)]]);
    await writeLedgerHour(db, hourStart, await computeLedgerHour(db, hourStart, samples), "test");
  }
}

beforeAll(async () => {
  db = makeTestDb().db;
  hostId = (await db.host.create({ data: { hostname: "roll-1", ...attribution } })).id;
  priceId = (
    await db.priceEntry.create({
      data: {
        provider: attribution.provider,
        instanceType: attribution.instanceType,
        pricingModel: attribution.pricingModel,
        region: "*",
        gpuModel: "A100",
        gpuCount: 2,
        gpuMemoryBytes: 40n * BigInt(GIB),
        usdPerHourMicros: 4_100_003n,
        effectiveFrom: new Date("2026-01-01T00:00:00Z"),
        source: "test",
        sourceDate: "2026-01",
        origin: "user",
      },
    })
  ).id;
});

afterAll(async () => {
  await db.$disconnect();
});

describe("the day roll-up (UsageDay)", () => {
  it("equals the ledger's sum after the ledger job writes hours across a day boundary", async () => {
    await ledgerHours(new Date("2026-10-31T20:00:00Z"), 10);
    const want = await expectedDays();
    expect(want.map((d) => (d.day as Date).toISOString())).toEqual([
      "2026-10-31T00:00:00.000Z",
      "2026-11-01T00:00:00.000Z",
    ]);
    expect(want[1]).toMatchObject({ hostHours: 6, gpuSeconds: expect.any(Number) });
    expect(await storedDays()).toEqual(want);
    // a second write of the same hour is refused by the ledger and leaves the roll-up as it was
    await ledgerHours(new Date("2026-11-01T05:00:00Z"), 1);
    expect(await storedDays()).toEqual(want);
  });

  it("follows a re-pricing: the swapped costs are in the roll-up in the same transaction", async () => {
    const before = await storedDays();
    await db.priceEntry.update({ where: { id: priceId }, data: { usdPerHourMicros: 7_333_333n } });
    const preview = await previewReprice({ month: "2026-11", now: NOW }, db);
    expect(preview.hours.changed).toBe(6);
    await applyReprice(
      { month: "2026-11", now: NOW, by: "test", expectedNewTotalMicros: preview.newTotalMicros },
      db,
    );
    const after = await storedDays();
    expect(after).toEqual(await expectedDays());
    const novCost = (days: Record<string, unknown>[]) =>
      days
        .filter((d) => (d.day as Date).getTime() >= Date.UTC(2026, 10, 1))
        .reduce((s, d) => s + (d.costMicros as bigint), 0n);
    expect(novCost(after)).toBe(BigInt(preview.newTotalMicros));
    expect(novCost(after)).not.toBe(novCost(before));
    // October was not re-priced: its day is untouched
    expect(after[0]).toEqual(before[0]);
  });

  it("is rebuilt exactly from rows written past the ledger's writer", async () => {
    const t = new Date(Date.UTC(2026, 10, 2, 23));
    await db.usageHour.createMany({
      data: ["host", "GPU-a", "GPU-a:gi1"].map((gpuKey) => ({
        ...attribution,
        hourStart: t,
        hostId,
        gpuKey,
        upSeconds: 3600,
        samples: 60,
        idleSeconds: 0,
        priced: true,
        costMicros: 1_000_000n,
        idleCostMicros: 0n,
        actualSource: gpuKey === "host" ? "bill" : null,
        listCostMicros: gpuKey === "host" ? 900_000n : null,
        source: "test",
      })),
    });
    expect(await rebuildUsageDays(db)).toBe(3);
    const days = await storedDays();
    expect(days).toEqual(await expectedDays());
    expect(
      days.find((d) => (d.day as Date).getTime() === t.getTime() - 23 * HOUR_MS),
    ).toMatchObject({
      hostHours: 1,
      actualHours: 1,
      actualCostMicros: 1_000_000n,
      gpuSeconds: 3600,
    });
    expect(dayOf(new Date(t.getTime() + DAY_MS - 1)).getTime()).toBe(Date.UTC(2026, 10, 3));
  });
});
