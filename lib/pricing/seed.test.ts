import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db.ts";
import { CATALOGUE } from "./catalogue.ts";
import { loadPriceRows } from "./catalogue-db.ts";
import { lookupPrice } from "./lookup.ts";
import { SHIPPED_RATES } from "./rates-catalogue.ts";
import { installShippedRates } from "./rates.ts";
import { installShippedCatalogue } from "./seed.ts";

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
  site: "",
};

describe("installShippedCatalogue", () => {
  it("inserts the catalogue once, as shipped rows, then nothing", async () => {
    expect(await installShippedCatalogue(client)).toEqual({
      inserted: CATALOGUE.length,
      updated: 0,
      kept: 0,
    });
    expect(await installShippedCatalogue(client)).toEqual({
      inserted: 0,
      updated: 0,
      kept: CATALOGUE.length,
    });
    expect(await client.priceEntry.count()).toBe(CATALOGUE.length);
    expect(await client.priceEntry.count({ where: { origin: "shipped" } })).toBe(CATALOGUE.length);
  });

  it("updates a shipped row a later release corrected, never one a person changed or retired", async () => {
    const where = { provider_instanceType_region_pricingModel_effectiveFrom_site: g4dnKey };
    const spot = {
      provider_instanceType_region_pricingModel_effectiveFrom_site: {
        ...g4dnKey,
        pricingModel: "spot",
      },
    };
    // a person changed the on-demand price; the spot row was retired
    await client.priceEntry.update({ where, data: { usdPerHourMicros: 500_000n, origin: "user" } });
    await client.priceEntry.update({
      where: spot,
      data: { retiredAt: new Date(), retiredBy: "t" },
    });
    // the next release corrects three g4dn rows
    const next = CATALOGUE.map((r) =>
      r.instanceType === "g4dn.xlarge" ? { ...r, usdPerHour: "9.99", note: "corrected" } : r,
    );
    const g4dnRows = CATALOGUE.filter((r) => r.instanceType === "g4dn.xlarge").length;
    expect(await installShippedCatalogue(client, next)).toEqual({
      inserted: 0,
      updated: g4dnRows - 2,
      kept: CATALOGUE.length - (g4dnRows - 2),
    });
    expect((await client.priceEntry.findUnique({ where }))?.usdPerHourMicros).toBe(500_000n);
    const retired = await client.priceEntry.findUnique({ where: spot });
    expect(retired?.usdPerHourMicros).toBe(190_000n);
    expect(retired?.retiredAt).not.toBeNull();
    const reserved = await client.priceEntry.findUnique({
      where: {
        provider_instanceType_region_pricingModel_effectiveFrom_site: {
          ...g4dnKey,
          pricingModel: "reserved",
        },
      },
    });
    expect(reserved).toMatchObject({ usdPerHourMicros: 9_990_000n, note: "corrected" });
    // a retired row prices nothing
    const rows = await loadPriceRows(client, { providers: ["aws"] });
    expect(rows.some((r) => r.instanceType === "g4dn.xlarge" && r.pricingModel === "spot")).toBe(
      false,
    );
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

  it("installs the shipped exchange rates with the catalogue, by the same origin rules", async () => {
    expect(await client.exchangeRate.count({ where: { origin: "shipped" } })).toBe(
      SHIPPED_RATES.length,
    );
    // a person adds a rate; a later release corrects one shipped rate and re-ships the rest
    await client.exchangeRate.create({
      data: {
        currency: "CNY",
        usdPerUnit: "0.14",
        effectiveFrom: new Date("2026-11-01T00:00:00Z"),
        source: "finance",
        sourceDate: "2026-11",
        origin: "user",
        updatedBy: "f@example.com",
      },
    });
    const next = SHIPPED_RATES.map((r, i) => (i === 0 ? { ...r, usdPerUnit: "0.1399" } : r));
    expect(await installShippedRates(client, next)).toEqual({
      inserted: 0,
      updated: 1,
      kept: SHIPPED_RATES.length - 1,
    });
    expect(await client.exchangeRate.count()).toBe(SHIPPED_RATES.length + 1);
    await installShippedRates(client);
  });

  it("loads CNY rows with their rates: each hour converts at the rate in force then", async () => {
    const rows = await loadPriceRows(client, { providers: ["alibaba"] });
    const q = {
      provider: "alibaba",
      instanceType: "ecs.gn6i-c4g1.xlarge",
      region: "cn-shanghai",
      pricingModel: "on_demand",
    };
    const oct = lookupPrice(rows, { ...q, at: new Date("2026-10-15T00:00:00Z") });
    const nov = lookupPrice(rows, { ...q, at: new Date("2026-11-15T00:00:00Z") });
    // October: the shipped 2026-08-21 rate (6.7210 CNY per USD, stored as 0.14878738:
    // 11.63 × 0.14878738 = 1.7303972294 → 1.730397); November: the person's 0.14
    expect(oct).toMatchObject({ priced: true, usdPerHourMicros: 1_730_397n, localCurrency: "CNY" });
    expect(nov).toMatchObject({ priced: true, usdPerHourMicros: 1_628_200n });
    // another region falls back to the international-site USD row
    const hz = lookupPrice(rows, { ...q, region: "cn-hangzhou", at: new Date("2026-11-15Z") });
    expect(hz).toMatchObject({ priced: true, usdPerHourMicros: 1_152_000n, region: "*" });
  });

  it("retires the rows a release withdrew, while still as shipped, and keeps a person's", async () => {
    const old = (instanceType: string, region: string) => ({
      provider: "aws",
      instanceType,
      region,
      pricingModel: "on_demand",
      gpuModel: "T4",
      gpuCount: 1,
      gpuMemoryBytes: 16n * 1024n ** 3n,
      usdPerHourMicros: 587_000n,
      effectiveFrom: new Date("2026-09-01T00:00:00Z"),
      source: "AWS Price List offer file",
      sourceDate: "2026-09-10",
    });
    // an earlier release shipped these on the offer file's date; a person since changed one
    await client.priceEntry.create({
      data: { ...old("g4dn.xlarge", "eu-west-1"), origin: "shipped" },
    });
    await client.priceEntry.create({
      data: { ...old("g4dn.xlarge", "us-west-2"), origin: "user", updatedBy: "f@example.com" },
    });
    const result = await installShippedCatalogue(client);
    // (updated: the g4dn rows an earlier test corrected go back to this release's figures)
    expect(result).toMatchObject({ inserted: 0, withdrawn: 1 });
    const rows = await loadPriceRows(client, { providers: ["aws"] });
    const g4dn = rows.filter((r) => r.instanceType === "g4dn.xlarge" && r.region !== "*");
    expect(
      g4dn.map((r) => `${r.region} ${r.effectiveFrom.toISOString().slice(0, 10)}`).sort(),
    ).toEqual([
      "eu-west-1 2024-01-01",
      "us-east-1 2024-01-01",
      "us-west-2 2024-01-01",
      "us-west-2 2026-09-01",
    ]);
    const gone = await client.priceEntry.findFirst({
      where: { region: "eu-west-1", effectiveFrom: new Date("2026-09-01T00:00:00Z") },
    });
    expect(gone?.retiredBy).toMatch(/^release: re-dated/);
    // an eu-west-1 hour in March 2026 prices from the regional row
    const march = lookupPrice(rows, {
      provider: "aws",
      instanceType: "g4dn.xlarge",
      region: "eu-west-1",
      pricingModel: "on_demand",
      at: new Date("2026-03-15T00:00:00Z"),
    });
    expect(march).toMatchObject({ priced: true, usdPerHourMicros: 587_000n, region: "eu-west-1" });
    // the next start retires nothing more
    expect((await installShippedCatalogue(client)).withdrawn).toBeUndefined();
  });

  it("prices a host on a China-site Tencent account (the setting) from the CNY list", async () => {
    // an earlier release shipped Tencent's rows without a site: retired for the sited ones
    await client.priceEntry.create({
      data: {
        provider: "tencent",
        instanceType: "GN7.2XLARGE32",
        region: "ap-guangzhou",
        pricingModel: "on_demand",
        gpuModel: "T4",
        gpuCount: 1,
        gpuMemoryBytes: 16n * 1024n ** 3n,
        usdPerHourMicros: 1_260_000n,
        effectiveFrom: new Date("2024-01-01T00:00:00Z"),
        source: "intl page",
        sourceDate: "2026-11",
        origin: "shipped",
      },
    });
    expect((await installShippedCatalogue(client)).withdrawn).toBe(1);
    await client.appSetting.create({
      data: { key: "tencentChinaSiteAccounts", value: JSON.stringify(["1250000000"]) },
    });
    const rows = await loadPriceRows(client, { providers: ["tencent"] });
    expect(
      rows
        .filter((r) => r.instanceType === "GN7.2XLARGE32")
        .map((r) => r.site)
        .sort(),
    ).toEqual(["china", "international"]);
    const host = {
      provider: "tencent",
      instanceType: "GN7.2XLARGE32",
      region: "ap-guangzhou",
      pricingModel: "on_demand",
      at: new Date("2026-10-15T00:00:00Z"),
    };
    // October 2026 and March 2026 convert at the rate in force each month
    const china = JSON.stringify({ cloud_account: "1250000000" });
    expect(lookupPrice(rows, { ...host, labels: china })).toMatchObject({
      priced: true,
      site: "china",
      localPerHourMicros: 8_680_000n,
      usdPerHourMicros: 1_291_474n, // 8.68 × 0.14878738 (6.7210 CNY per USD from 2026-08-21)
    });
    expect(
      lookupPrice(rows, { ...host, labels: china, at: new Date("2026-03-15T00:00:00Z") }),
    ).toMatchObject({ usdPerHourMicros: 1_193_390n }); // 8.68 × 0.13748728 (February 2025's)
    const intl = JSON.stringify({ cloud_account: "99" });
    expect(lookupPrice(rows, { ...host, labels: intl })).toMatchObject({
      site: "international",
      usdPerHourMicros: 1_260_000n,
    });
  });
});
