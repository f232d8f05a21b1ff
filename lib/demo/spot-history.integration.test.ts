import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { priceHosts } from "../fleet/host-prices.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { seedDemo } from "./seed.ts";
import { DEMO_SPOT_PROVENANCE } from "./spot-history.ts";

// Seeding the demo imports its synthetic spot price history before the ledger is built: the spot
// hosts' seeded hours cost their zone's market price of the hour, not the catalogue's spot row,
// and the host's price says whose market price it is.

const NOW = new Date("2026-11-15T12:20:00Z");
let db: Db;

beforeAll(async () => {
  const t = makeTestDb();
  db = t.db;
  await seedDemo(db, {
    exporterBase: "http://127.0.0.1:9",
    databaseUrl: t.url,
    hosts: 24,
    now: NOW,
    historyDays: 1,
    chartDays: 1,
  });
}, 180_000);
afterAll(async () => {
  await db.$disconnect();
});

describe("the demo's spot price history", () => {
  it("is stored for the spot hosts' types and zones over the ledger window, marked synthetic", async () => {
    const rows = await db.spotPrice.groupBy({
      by: ["instanceType", "zone"],
      _count: { _all: true },
      _min: { at: true },
      _max: { at: true },
    });
    expect(rows.map((r) => [r.instanceType, r.zone, r._count._all])).toEqual([
      ["g5.xlarge", "us-east-1b", 27],
      ["g6.xlarge", "us-east-1d", 27],
    ]);
    // from the hour before the first ledger hour to the current hour
    expect(rows[0]?._min.at).toEqual(new Date("2026-11-14T10:00:00Z"));
    expect(rows[0]?._max.at).toEqual(new Date("2026-11-15T12:00:00Z"));
    const sources = await db.spotPrice.findMany({ distinct: ["source"], select: { source: true } });
    expect(sources).toEqual([{ source: expect.stringContaining(DEMO_SPOT_PROVENANCE) }]);
  });

  it("prices each seeded spot hour at its zone's market price of that hour", async () => {
    const host = await db.host.findUniqueOrThrow({ where: { hostname: "gpu-aws-use1-006" } });
    expect(host).toMatchObject({ pricingModel: "spot", zone: "us-east-1b" });
    const hours = await db.usageHour.findMany({
      where: { hostId: host.id, gpuKey: "host", upSeconds: 3600 },
      orderBy: { hourStart: "asc" },
    });
    expect(hours.length).toBeGreaterThan(20);
    const market = new Map(
      (await db.spotPrice.findMany({ where: { zone: "us-east-1b" } })).map((p) => [
        p.at.getTime(),
        p.usdPerHourMicros,
      ]),
    );
    for (const h of hours) {
      expect(h.priced).toBe(true);
      expect(h.costMicros).toBe(market.get(h.hourStart.getTime()));
    }
    expect(new Set(hours.map((h) => h.costMicros)).size).toBeGreaterThan(hours.length / 2);
  });

  it("says on the host's price that it is the zone's spot market price", async () => {
    const hosts = await db.host.findMany({
      where: { hostname: { in: ["gpu-aws-use1-006", "gpu-aws-use1-009", "gpu-aws-use1-005"] } },
      orderBy: { hostname: "asc" },
    });
    const prices = priceHosts(hosts, await loadPriceRows(db), NOW);
    expect(hosts.map((h) => prices.get(h.id)?.note ?? null)).toEqual([
      // the on-demand g5 beside it is priced from the catalogue's fallback row, as before
      "fallback (no us-east-1 price)",
      "spot market price in us-east-1b (2026-11-15 12:00 UTC)",
      "spot market price in us-east-1d (2026-11-15 12:00 UTC)",
    ]);
  });
});
