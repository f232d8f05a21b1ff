import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError, InvalidInputError } from "@/lib/core/errors.ts";
import { sumMicros } from "@/lib/core/money.ts";
import type { Db } from "@/lib/db.ts";
import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import { lookupPrice } from "@/lib/pricing/lookup.ts";
import { retirePrice, updatePrice } from "@/lib/pricing/manage.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { GIB, gpu } from "./ledger-fixtures.ts";
import { computeHostHour, toUsageHourData } from "./ledger-math.ts";
import type { GpuSample, HostAttribution, HostSample } from "./ledger-types.ts";
import { attribution, money } from "./reprice-fixtures.ts";
import { applyReprice, previewReprice } from "./reprice.ts";

// Previewing and applying a month's re-pricing against a real store (SQLite, and PostgreSQL in
// the "postgres" project); the crash test is reprice-kill.integration.test.ts.

const HOUR_MS = 3_600_000;

let db: Db;

beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => {
  await db.$disconnect();
});

const hours = (first: string, n: number): Date[] =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(first) + i * HOUR_MS));

/** Every sample of the ledger window of `hourStart`, up during [upFrom, upTo) seconds. */
function hourSamples(
  hourStart: Date,
  gpus: (s: number) => GpuSample[],
  up: { from?: number; to?: number } = {},
): HostSample[] {
  const out: HostSample[] = [];
  for (let s = -1860; s < 3600; s += 60) {
    const t = new Date(hourStart.getTime() + s * 1000);
    const isUp = s >= (up.from ?? -1860) && s < (up.to ?? 3600);
    out.push(isUp ? { t, up: true, gpus: gpus(s) } : { t, up: false, gpus: [] });
  }
  return out;
}

async function addHost(hostname: string, attr: HostAttribution): Promise<string> {
  return (await db.host.create({ data: { hostname, ...attr } })).id;
}

/** Writes ledger hours as the collector does: computeHostHour with the catalogue as it is now. */
async function writeHours(
  hostId: string,
  attr: HostAttribution,
  starts: readonly Date[],
  gpus: (s: number) => GpuSample[],
  up: { from?: number; to?: number } = {},
): Promise<void> {
  const prices = await loadPriceRows(db);
  for (const hourStart of starts) {
    const rows = computeHostHour({
      hourStart,
      host: attr,
      price: lookupPrice(prices, { ...attr, at: hourStart }),
      samples: hourSamples(hourStart, gpus, up),
      intervalSeconds: 60,
    });
    await db.usageHour.createMany({ data: rows.map((r) => toUsageHourData(r, hostId, "test")) });
  }
}

async function addPrice(attr: HostAttribution, usdPerHourMicros: bigint): Promise<string> {
  const row = await db.priceEntry.create({
    data: {
      provider: attr.provider,
      instanceType: attr.instanceType,
      region: "*",
      pricingModel: attr.pricingModel,
      gpuModel: "A100",
      gpuCount: 2,
      gpuMemoryBytes: 40n * BigInt(GIB),
      usdPerHourMicros,
      effectiveFrom: new Date("2026-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2026-01",
      origin: "user",
    },
  });
  return row.id;
}

/** The money columns of every ledger row, for "nothing was written" checks. */
const ledger = async () =>
  db.usageHour.findMany({
    orderBy: [{ hourStart: "asc" }, { hostId: "asc" }, { gpuKey: "asc" }],
    select: {
      id: true,
      hourStart: true,
      gpuKey: true,
      costMicros: true,
      idleCostMicros: true,
      priced: true,
      currency: true,
    },
  });

const twoGpus = (s: number): GpuSample[] => [
  gpu("GPU-a", s >= 0 ? { util: 0, processes: 0, memUsedBytes: 0 } : {}),
  gpu("GPU-b"),
];
const migGpu = (): GpuSample[] => [
  gpu("GPU-m", { memTotalBytes: 40 * GIB }),
  ...[1, 2, 3].map((k) =>
    gpu(`MIG-${k}`, {
      util: null,
      processes: k === 2 ? 0 : 1,
      memUsedBytes: 0,
      memTotalBytes: k * 5 * GIB,
      migParentUuid: "GPU-m",
      migFraction: k / 7,
    }),
  ),
];

describe("previewReprice / applyReprice", () => {
  it("changes nothing for hours written with today's prices, and the preview writes nothing", async () => {
    const attr = attribution({ instanceType: "tc.same" });
    await addPrice(attr, 32_772_601n);
    const id = await addHost("same-1", attr);
    await writeHours(id, attr, hours("2026-03-01T00:00:00Z", 5), migGpu);
    await writeHours(id, attr, hours("2026-03-02T00:00:00Z", 3), twoGpus, { from: 0, to: 1234 });
    const now = new Date("2026-03-20T12:00:00Z");
    const before = await ledger();
    const p = await previewReprice({ month: "2026-03", now }, db);
    expect(p).toMatchObject({
      month: "2026-03",
      closed: false,
      applied: false,
      hours: { total: 8, changed: 0, newlyPriced: 0, newlyUnpriced: 0 },
      rowsChanged: 0,
      hostsChanged: 0,
      hosts: [],
    });
    expect(p.newTotalMicros).toBe(p.oldTotalMicros);
    const applied = await applyReprice(
      {
        month: "2026-03",
        now,
        by: "fin@test.local",
        expectedNewTotalMicros: p.newTotalMicros,
      },
      db,
    );
    expect(applied).toMatchObject({ applied: true, rowsChanged: 0, appliedBy: "fin@test.local" });
    expect(await ledger()).toEqual(before);
  });

  it("prices hours that had no price once a catalogue row is added", async () => {
    const attr = attribution({ instanceType: "tc.new" });
    const id = await addHost("new-1", attr);
    await writeHours(id, attr, hours("2026-04-03T10:00:00Z", 3), twoGpus);
    const now = new Date("2026-04-20T00:00:00Z");
    const start = await previewReprice({ month: "2026-04", now }, db);
    expect(start.hours).toMatchObject({ total: 3, changed: 0, unpricedAfter: 3 });

    await addPrice(attr, 2_000_001n);
    const before = await ledger();
    const p = await previewReprice({ month: "2026-04", now }, db);
    expect(await ledger()).toEqual(before);
    // 3 hours × 2.000001 $/h, all up
    expect(p).toMatchObject({
      oldTotalMicros: "0",
      newTotalMicros: "6000003",
      deltaMicros: "6000003",
      hours: { total: 3, changed: 3, newlyPriced: 3, newlyUnpriced: 0, unpricedAfter: 0 },
      rowsChanged: 9,
      hostsChanged: 1,
    });
    expect(p.hosts).toEqual([
      {
        hostId: id,
        hostname: "new-1",
        instanceType: "tc.new",
        pricingModel: "on_demand",
        oldMicros: "0",
        newMicros: "6000003",
        deltaMicros: "6000003",
        hoursChanged: 3,
      },
    ]);
    const r = await applyReprice(
      {
        month: "2026-04",
        now,
        by: "fin",
        expectedNewTotalMicros: p.newTotalMicros,
      },
      db,
    );
    expect(r).toMatchObject({ applied: true, newTotalMicros: "6000003", rowsChanged: 9 });

    // the rows are now exactly what the ledger would write with the new price
    const prices = await loadPriceRows(db);
    const rows = await db.usageHour.findMany({
      where: { hostId: id },
      orderBy: [{ hourStart: "asc" }, { gpuKey: "asc" }],
    });
    for (const hourStart of hours("2026-04-03T10:00:00Z", 3)) {
      const want = computeHostHour({
        hourStart,
        host: attr,
        price: lookupPrice(prices, { ...attr, at: hourStart }),
        samples: hourSamples(hourStart, twoGpus),
        intervalSeconds: 60,
      }).sort((x, y) => (x.gpuKey < y.gpuKey ? -1 : 1));
      const got = rows
        .filter((x) => x.hourStart.getTime() === hourStart.getTime())
        .sort((x, y) => (x.gpuKey < y.gpuKey ? -1 : 1));
      expect(money(got)).toEqual(money(want));
    }
    // GPU-a low from the hour's start, so idle (30 min later) for 1,800 s: half its share,
    // 1,000,001 × 1800 / 3600 = 500,000.5 → 500,001 (half-up); GPU-b gets the other 1,000,000
    expect(
      rows
        .filter((x) => x.hourStart.getTime() === Date.parse("2026-04-03T10:00:00Z"))
        .map((x) => [x.gpuKey, x.costMicros, x.idleCostMicros]),
    ).toEqual([
      ["GPU-a", 1_000_001n, 500_001n],
      ["GPU-b", 1_000_000n, 0n],
      ["host", 2_000_001n, 500_001n],
    ]);
    // a second run finds nothing left to do
    expect((await previewReprice({ month: "2026-04", now }, db)).hours.changed).toBe(0);
  });

  it("re-prices a corrected price by exactly the hand-computed difference", async () => {
    const attr = attribution({ instanceType: "tc.fix" });
    const priceId = await addPrice(attr, 10_000_000n);
    const id = await addHost("fix-1", attr);
    const other = await addHost("fix-2", attr);
    await writeHours(id, attr, hours("2026-05-01T00:00:00Z", 4), twoGpus);
    // up for the first 1,800 s only: 10 $/h × 1800 / 3600 = 5 $
    await writeHours(other, attr, hours("2026-05-02T00:00:00Z", 2), migGpu, { to: 1800 });
    const now = new Date("2026-05-31T23:59:00Z");
    const old = await previewReprice({ month: "2026-05", now }, db);
    expect(old.oldTotalMicros).toBe(String(4n * 10_000_000n + 2n * 5_000_000n));

    await updatePrice(priceId, { usdPerHour: "12.500001" }, "fin", db);
    const p = await previewReprice({ month: "2026-05", now }, db);
    // full hours: 12,500,001 each; half hours: 12,500,001 × 1800 / 3600 = 6,250,000.5 → 6,250,001
    const expected = 4n * 12_500_001n + 2n * 6_250_001n;
    expect(p).toMatchObject({
      oldTotalMicros: "50000000",
      newTotalMicros: String(expected),
      deltaMicros: String(expected - 50_000_000n),
      hours: { total: 6, changed: 6, newlyPriced: 0, newlyUnpriced: 0 },
      hostsChanged: 2,
    });
    // largest absolute change first
    expect(p.hosts.map((h) => [h.hostname, h.deltaMicros])).toEqual([
      ["fix-1", String(4n * 2_500_001n)],
      ["fix-2", String(2n * 1_250_001n)],
    ]);

    // a smaller page size (host-hours cut across pages) gives the same answer
    const paged = await previewReprice({ month: "2026-05", now, pageRows: 7 }, db);
    expect(paged).toEqual(p);

    const r = await applyReprice(
      {
        month: "2026-05",
        now,
        by: "fin",
        expectedNewTotalMicros: p.newTotalMicros,
        pageRows: 5,
      },
      db,
    );
    expect(r.newTotalMicros).toBe(String(expected));
    const hostRows = await db.usageHour.findMany({ where: { hostId: other, gpuKey: "host" } });
    expect(hostRows.map((x) => x.costMicros)).toEqual([6_250_001n, 6_250_001n]);
    // MIG rows still add up to the host row
    const gpuRows = await db.usageHour.findMany({
      where: { hostId: other, gpuKey: { not: "host" } },
    });
    expect(sumMicros(gpuRows.map((x) => x.costMicros))).toBe(2n * 6_250_001n);
    expect((await previewReprice({ month: "2026-05", now }, db)).hours.changed).toBe(0);
  });

  it("moves the holders' shares of a re-priced GPU-hour with its cost, never past it", async () => {
    const attr = attribution({ instanceType: "tc.held" });
    const priceId = await addPrice(attr, 10_000_000n);
    const id = await addHost("held-1", attr);
    const [hourStart] = hours("2026-02-01T00:00:00Z", 1);
    if (!hourStart) throw new Error("no hour");
    // GPU-a idle from 0 s (its idle seconds and cost), GPU-b busy: each row is 5 $ of 10 $/h
    await writeHours(id, attr, [hourStart], twoGpus);
    const row = await db.usageHour.findFirstOrThrow({ where: { hostId: id, gpuKey: "GPU-a" } });
    expect(row.costMicros).toBe(5_000_000n);
    const holder = (user: string, sharePpm: number, idleSeconds: number) => ({
      hourStart,
      hostId: id,
      gpuKey: "GPU-a",
      holderKey: `${user}|process:1`,
      user,
      kind: "process",
      ref: "1",
      team: "ml",
      sharePpm,
      memByteSeconds: 1n,
      costMicros: (5_000_000n * BigInt(sharePpm)) / 1_000_000n,
      idleSeconds,
      idleCostMicros:
        row.idleSeconds > 0
          ? (row.idleCostMicros * BigInt(idleSeconds)) / BigInt(row.idleSeconds)
          : 0n,
    });
    await db.usageHourHolder.createMany({
      data: [holder("alice", 666_667, Math.floor(row.idleSeconds / 2)), holder("bob", 333_333, 0)],
    });
    await updatePrice(priceId, { usdPerHour: "13.000003" }, "fin", db);
    const now = new Date("2026-02-27T12:00:00Z");
    const p = await previewReprice({ month: "2026-02", now }, db);
    await applyReprice(
      { month: "2026-02", now, by: "fin", expectedNewTotalMicros: p.newTotalMicros },
      db,
    );
    const after = await db.usageHour.findFirstOrThrow({ where: { id: row.id } });
    expect(after.costMicros).toBe(6_500_002n); // 13.000003 ÷ 2, rounded half up
    const held = await db.usageHourHolder.findMany({ orderBy: { user: "asc" } });
    // by the weights they were split by, rounded down: 6,500,002 × 0.666667 and × 0.333333
    expect(held.map((h) => [h.user, h.costMicros])).toEqual([
      ["alice", 4_333_336n],
      ["bob", 2_166_665n],
    ]);
    expect(sumMicros(held.map((h) => h.costMicros))).toBeLessThanOrEqual(after.costMicros);
    expect(held[0]?.idleCostMicros).toBe(
      (after.idleCostMicros * BigInt(held[0]?.idleSeconds ?? 0)) / BigInt(after.idleSeconds),
    );
    expect(held[1]?.idleCostMicros).toBe(0n);
  });

  it("makes hours unpriced when their price row is retired", async () => {
    const attr = attribution({ instanceType: "tc.gone" });
    const priceId = await addPrice(attr, 3_000_000n);
    const id = await addHost("gone-1", attr);
    await writeHours(id, attr, hours("2026-06-10T00:00:00Z", 4), twoGpus);
    await retirePrice(priceId, "fin", db);
    const now = new Date("2026-06-15T00:00:00Z");
    const p = await previewReprice({ month: "2026-06", now }, db);
    expect(p).toMatchObject({
      oldTotalMicros: "12000000",
      newTotalMicros: "0",
      hours: { total: 4, changed: 4, newlyPriced: 0, newlyUnpriced: 4, unpricedAfter: 4 },
    });
    await applyReprice({ month: "2026-06", now, by: "fin", expectedNewTotalMicros: "0" }, db);
    const rows = await db.usageHour.findMany({ where: { hostId: id } });
    expect(rows.every((x) => !x.priced && x.costMicros === 0n && x.idleCostMicros === 0n)).toBe(
      true,
    );
  });

  it("refuses a closed month unless reopened, and future or pre-2000 months", async () => {
    const attr = attribution({ instanceType: "tc.closed" });
    const id = await addHost("closed-1", attr);
    await writeHours(id, attr, hours("2026-07-31T20:00:00Z", 2), twoGpus);
    await addPrice(attr, 1_000_000n);
    const now = new Date("2026-08-02T00:00:00Z");
    const p = await previewReprice({ month: "2026-07", now }, db);
    expect(p).toMatchObject({ closed: true, newTotalMicros: "2000000" });
    const before = await ledger();
    const args = { month: "2026-07", now, by: "fin", expectedNewTotalMicros: "2000000" };
    await expect(applyReprice(args, db)).rejects.toThrow(ConflictError);
    await expect(applyReprice({ ...args, reopen: false }, db)).rejects.toThrow(/closed/);
    expect(await ledger()).toEqual(before);
    const r = await applyReprice({ ...args, reopen: true }, db);
    expect(r).toMatchObject({ closed: true, reopened: true, newTotalMicros: "2000000" });

    await expect(previewReprice({ month: "2026-09", now }, db)).rejects.toThrow(InvalidInputError);
    await expect(previewReprice({ month: "1999-12", now }, db)).rejects.toThrow(InvalidInputError);
    await expect(previewReprice({ month: "2026-7", now }, db)).rejects.toThrow(InvalidInputError);
    await expect(applyReprice({ ...args, month: "2026-09", reopen: true }, db)).rejects.toThrow(
      InvalidInputError,
    );
  });

  it("refuses a stale expected total and writes nothing", async () => {
    const attr = attribution({ instanceType: "tc.stale" });
    const priceId = await addPrice(attr, 4_000_000n);
    const id = await addHost("stale-1", attr);
    await writeHours(id, attr, hours("2026-09-05T00:00:00Z", 2), twoGpus);
    const now = new Date("2026-09-06T00:00:00Z");
    await updatePrice(priceId, { usdPerHour: "5" }, "fin", db);
    const p = await previewReprice({ month: "2026-09", now }, db);
    expect(p.newTotalMicros).toBe("10000000");
    // someone changes the price again between the preview and the apply
    await updatePrice(priceId, { usdPerHour: "6" }, "fin", db);
    const before = await ledger();
    await expect(
      applyReprice(
        {
          month: "2026-09",
          now,
          by: "fin",
          expectedNewTotalMicros: p.newTotalMicros,
        },
        db,
      ),
    ).rejects.toThrow(/preview again/);
    expect(await ledger()).toEqual(before);
  });
});
