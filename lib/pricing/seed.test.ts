import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db.ts";
import { CATALOGUE } from "./catalogue.ts";
import { loadPriceRows } from "./catalogue-db.ts";
import { lookupPrice } from "./lookup.ts";
import { seedCatalogue } from "./seed.ts";

// A throwaway SQLite file with the real migrations applied, so the test makes its own data.
const dir = mkdtempSync(join(tmpdir(), "gpufleet-seed-"));
const file = join(dir, "test.db");
let client: Db;

beforeAll(() => {
  const sqlite = new Database(file);
  const migrations = new URL("../../prisma/migrations/", import.meta.url);
  for (const name of readdirSync(migrations)
    .filter((n) => /^\d/.test(n))
    .sort()) {
    sqlite.exec(readFileSync(new URL(`${name}/migration.sql`, migrations), "utf8"));
  }
  sqlite.close();
  client = createDb(`file:${file}`);
});

afterAll(async () => {
  await client.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

const g4dnKey = {
  provider: "aws",
  instanceType: "g4dn.xlarge",
  region: "*",
  pricingModel: "on_demand",
  effectiveFrom: new Date("2024-01-01T00:00:00Z"),
};

describe("seedCatalogue", () => {
  it("inserts the catalogue once, then nothing", async () => {
    expect(await seedCatalogue(client)).toEqual({ inserted: CATALOGUE.length, skipped: 0 });
    expect(await seedCatalogue(client)).toEqual({ inserted: 0, skipped: CATALOGUE.length });
    expect(await client.priceEntry.count()).toBe(CATALOGUE.length);
  });

  it("keeps a price the user edited and restores only missing rows", async () => {
    const where = { provider_instanceType_region_pricingModel_effectiveFrom: g4dnKey };
    await client.priceEntry.update({ where, data: { usdPerHourMicros: 500_000n } });
    await client.priceEntry.delete({
      where: {
        provider_instanceType_region_pricingModel_effectiveFrom: {
          ...g4dnKey,
          pricingModel: "spot",
        },
      },
    });
    expect(await seedCatalogue(client)).toEqual({ inserted: 1, skipped: CATALOGUE.length - 1 });
    const edited = await client.priceEntry.findUnique({ where });
    expect(edited?.usdPerHourMicros).toBe(500_000n);
  });

  it("loads rows that the lookup prices from", async () => {
    const rows = await loadPriceRows(client, { providers: ["gcp"] });
    expect(rows.every((r) => r.provider === "gcp")).toBe(true);
    const res = lookupPrice(rows, {
      provider: "gcp",
      instanceType: "a3-highgpu-8g",
      region: "us-central1",
      pricingModel: "reserved",
      at: new Date("2026-11-01T00:00:00Z"),
    });
    expect(res).toMatchObject({ priced: true, usdPerHourMicros: 55_310_000n, gpuCount: 8 });
  });
});
