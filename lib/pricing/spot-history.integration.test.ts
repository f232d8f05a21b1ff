import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { runLedgerJob } from "../ledger/job.ts";
import { CATALOGUE } from "../ledger/reprice-source.ts";
import { scanMonth } from "../ledger/reprice-store.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { loadPriceRows } from "./catalogue-db.ts";
import { lookupPrice } from "./lookup.ts";
import { installShippedCatalogue } from "./seed.ts";
import { parseSpotHistory } from "./spot-history.ts";
import { importSpotHistory, SpotConflictError } from "./spot-history-db.ts";

// A spot host's ledger hour priced from imported spot price history, end to end on the database:
// the CLI's import, loadPriceRows attaching the history, the ledger job passing the host's zone.

const FIXTURE = new URL("./import/fixtures/aws-spot-price-history-p4d.json", import.meta.url);
const HOUR = Date.UTC(2026, 9, 1, 13);
let db: Db;
let hostId: string;

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  const host = await db.host.create({
    data: {
      hostname: "spot-1",
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      zone: "us-east-1a",
      pricingModel: "spot",
      team: "ml",
    },
  });
  hostId = host.id;
  await db.gpu.create({
    data: { hostId, uuid: "GPU-s", index: 0, name: "A100", memoryTotalBytes: 40n * 1024n ** 3n },
  });
  const minutes = Array.from({ length: 60 }, (_, m) => new Date(HOUR + m * 60_000));
  await db.hostMinute.createMany({
    data: minutes.map((minuteStart) => ({ hostId, minuteStart, samples: 1, upSamples: 1 })),
  });
  await db.gpuMinute.createMany({
    data: minutes.map((minuteStart) => ({
      hostId,
      gpuUuid: "GPU-s",
      minuteStart,
      samples: 1,
      util: 0.5,
      memUsedBytes: 0n,
      memTotalBytes: 40n * 1024n ** 3n,
      processes: 0,
    })),
  });
});

afterAll(async () => {
  await db.$disconnect();
});

describe("spot price history in the ledger", () => {
  it("imports all or nothing: a record stored at another price refuses the file", async () => {
    const { points } = parseSpotHistory(readFileSync(FIXTURE, "utf8"), "p4d.json");
    const dry = await importSpotHistory(db, points, "test", { dryRun: true });
    expect(dry).toMatchObject({ added: 3, unchanged: 0 });
    expect(await db.spotPrice.count()).toBe(0);
    expect(await importSpotHistory(db, points, "test", { dryRun: false })).toMatchObject({
      added: 3,
    });
    const changed = points.map((p, i) =>
      i === 0 ? { ...p, usdPerHourMicros: 1n } : { ...p, at: new Date(+p.at + 1000) },
    );
    await expect(importSpotHistory(db, changed, "test", { dryRun: false })).rejects.toThrow(
      SpotConflictError,
    );
    expect(await db.spotPrice.count()).toBe(3); // the two new records were not written either
    expect(await importSpotHistory(db, points, "test", { dryRun: false })).toMatchObject({
      added: 0,
      unchanged: 3,
    });
  });

  it("writes the spot hour at its zone's market price, not the catalogue's guess", async () => {
    const prices = await loadPriceRows(db);
    const q = {
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      pricingModel: "spot",
    };
    const catalogue = lookupPrice(prices, { ...q, at: new Date(HOUR), zone: "eu-west-1a" });
    expect(catalogue).toMatchObject({ priced: true });
    expect(catalogue.priced && catalogue.source).not.toBe("AWS spot price history");

    const ctx = { db, now: new Date(HOUR + 65 * 60_000), metrics: createEmbeddedSource(db, 60) };
    await db.jobState.create({
      data: { name: "ledger.lastHour", value: new Date(HOUR - 3_600_000).toISOString() },
    });
    await runLedgerJob(ctx);
    const row = await db.usageHour.findFirst({ where: { hostId, gpuKey: "host" } });
    expect(row).toMatchObject({ priced: true, pricingModel: "spot", upSeconds: 3600 });
    // a whole hour up at us-east-1a's 9.8321 (from 12:00), not the catalogue's spot row
    expect(row?.costMicros).toBe(9_832_100n);
    expect(catalogue.priced && catalogue.usdPerHourMicros).not.toBe(9_832_100n);
  });

  it("re-pricing the month prices the hour from the host's zone, as the ledger did", async () => {
    const bounds = { from: new Date(Date.UTC(2026, 9, 1)), to: new Date(Date.UTC(2026, 10, 1)) };
    const same = await scanMonth(db, bounds, await loadPriceRows(db), {
      pageRows: 100,
      source: CATALOGUE,
    });
    expect(same).toMatchObject({ hoursTotal: 1, hoursChanged: 0, newTotal: same.oldTotal });
    // a later record in the zone at or before the hour's start changes it
    await db.spotPrice.create({
      data: {
        instanceType: "p4d.24xlarge",
        zone: "us-east-1a",
        region: "us-east-1",
        at: new Date(HOUR - 60_000),
        usdPerHourMicros: 9_000_000n,
        source: "test",
      },
    });
    const moved = await scanMonth(db, bounds, await loadPriceRows(db), {
      pageRows: 100,
      source: CATALOGUE,
    });
    expect(moved).toMatchObject({ hoursChanged: 1, oldTotal: 9_832_100n, newTotal: 9_000_000n });
  });
});
