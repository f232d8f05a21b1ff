import { createReadStream, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { applyImport } from "./apply.ts";
import { parseImport } from "./parse.ts";
import type { ImportProvider, ParseOptions } from "./types.ts";

// Each price-list fixture (real excerpts, see fixtures/README.md) imported into a fresh store:
// the expected rows with their exact prices, nothing but GPU instances, a second import of the
// same file changes nothing, and a stored row at another price is reported, not overwritten.

const dir = new URL("./fixtures/", import.meta.url);
const path = (name: string) => new URL(name, dir).pathname;
const file = (name: string) => ({ name, source: createReadStream(path(name)) });

let db: Db;
beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

async function run(
  provider: ImportProvider,
  names: string[],
  opts: ParseOptions = {},
  dryRun = false,
) {
  const parsed = await parseImport(provider, names.map(file), opts);
  return applyImport(db, parsed, { dryRun, provider });
}

async function price(
  provider: string,
  instanceType: string,
  region: string,
  pricingModel = "on_demand",
) {
  const rows = await db.priceEntry.findMany({
    where: { provider, instanceType, region, pricingModel },
  });
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe("importing the price-list fixtures", () => {
  it("AWS offer file (JSON): the five GPU instances of us-east-1, nothing else", async () => {
    const r = await run("aws", ["aws-ec2-us-east-1-20260910195514.json"]);
    expect(r).toMatchObject({ added: 5, unchanged: 0, conflicts: [], skippedNonGpu: 11 });
    expect(r.skipped).toMatchObject({ "marketoption CapacityBlock": 1, "not a GPU instance": 10 });
    const p4d = await price("aws", "p4d.24xlarge", "us-east-1");
    expect(p4d).toMatchObject({
      usdPerHourMicros: 21_957_642n,
      gpuModel: "A100-40GB",
      gpuCount: 8,
      gpuMemoryBytes: 40n * 1024n ** 3n,
      currency: "USD",
      effectiveFrom: new Date("2026-09-01T00:00:00Z"),
      sourceDate: "2026-09-10",
      origin: "user",
      updatedBy: "import:aws:aws-ec2-us-east-1-20260910195514.json",
    });
    expect(p4d?.source).toContain("version 20260910195514");
    expect((await price("aws", "g4dn.xlarge", "us-east-1"))?.usdPerHourMicros).toBe(526_000n);
    expect((await price("aws", "p5.48xlarge", "us-east-1"))?.usdPerHourMicros).toBe(55_040_000n);
    expect(
      await db.priceEntry.count({
        where: { instanceType: { in: ["inf2.xlarge", "trn1.32xlarge", "m5.xlarge"] } },
      }),
    ).toBe(0);

    const again = await run("aws", ["aws-ec2-us-east-1-20260910195514.json"]);
    expect(again).toMatchObject({ added: 0, unchanged: 5, conflicts: [] });
  });

  it("a stored row at another price is a conflict: reported, left as it is", async () => {
    await db.priceEntry.updateMany({
      where: { provider: "aws", instanceType: "g5.2xlarge" },
      data: { usdPerHourMicros: 1_000_000n },
    });
    const r = await run("aws", ["aws-ec2-us-east-1-20260910195514.json"]);
    expect(r.added).toBe(0);
    expect(r.unchanged).toBe(4);
    expect(r.conflicts).toEqual([
      expect.objectContaining({
        instanceType: "g5.2xlarge",
        storedUsdPerHour: "1.000000",
        importedUsdPerHour: "1.212000",
      }),
    ]);
    expect((await price("aws", "g5.2xlarge", "us-east-1"))?.usdPerHourMicros).toBe(1_000_000n);
  });

  it("AWS offer file (CSV, the global sample): no row passes the GPU filter", async () => {
    const before = await db.priceEntry.count();
    const r = await run("aws", ["aws-ec2-global-sample-20250912225308.csv"]);
    expect(r).toMatchObject({ added: 0, skippedNonGpu: 43 });
    // the one GPU row is SUSE on dedicated tenancy: left out by the filter, not by accident
    expect(r.skipped["operatingSystem is not Linux"]).toBe(1);
    expect(await db.priceEntry.count()).toBe(before);
  });

  it("Azure Retail Prices pages: Linux on-demand and spot of ND96isr H100 v5, Windows left out", async () => {
    const r = await run(
      "azure",
      ["azure-retail-eastus-nd96isr-h100-v5.json", "azure-retail-eastus-b1s.json"],
      { sourceDate: "2026-09-16" },
    );
    expect(r).toMatchObject({ added: 2, skippedNonGpu: 2, conflicts: [] });
    expect(r.skipped.Windows).toBe(2);
    const od = await price("azure", "Standard_ND96isr_H100_v5", "eastus");
    expect(od).toMatchObject({
      usdPerHourMicros: 98_320_000n,
      gpuModel: "H100-80GB",
      gpuCount: 8,
      sourceDate: "2026-09-16",
      effectiveFrom: new Date("2026-09-16T00:00:00Z"),
    });
    const spot = await price("azure", "Standard_ND96isr_H100_v5", "eastus", "spot");
    expect(spot?.usdPerHourMicros).toBe(18_169_536n);
  });

  it("GCP Billing Catalog: A2 machine types composed from core, RAM and GPU SKUs", async () => {
    const r = await run("gcp", ["gcp-compute-skus-opencost.json"], { sourceDate: "2023-08" });
    // a2-highgpu-1g/2g/4g/8g and a2-megagpu-16g in the three Americas regions of the SKUs
    expect(r).toMatchObject({ added: 15, skippedNonGpu: 4, conflicts: [] });
    const a2 = await price("gcp", "a2-highgpu-1g", "us-central1");
    // 12 × 0.031611 + 85 × 0.004237 + 2.933908: Google's published a2-highgpu-1g price
    expect(a2).toMatchObject({ usdPerHourMicros: 3_673_385n, gpuModel: "A100-40GB", gpuCount: 1 });
    expect(a2?.note).toContain("12 × 0.031611 (A2 Instance Core)");
    expect((await price("gcp", "a2-megagpu-16g", "us-west1"))?.usdPerHourMicros).toBe(55_739_504n);
    // the 80 GB A100 SKU is not in the file, so no a2-ultragpu price is invented
    expect(
      await db.priceEntry.count({ where: { instanceType: { startsWith: "a2-ultragpu" } } }),
    ).toBe(0);
  });

  it("Tencent and Alibaba CSV templates", async () => {
    const t = await run("tencent", ["tencent-gpu-ap-guangzhou.csv"]);
    expect(t).toMatchObject({ added: 4, skippedNonGpu: 0 });
    expect(await price("tencent", "GN7.2XLARGE32", "ap-guangzhou")).toMatchObject({
      usdPerHourMicros: 1_260_000n,
      gpuModel: "T4",
      gpuMemoryBytes: 16n * 1024n ** 3n,
      sourceDate: "2026-11",
    });
    const a = await run("alibaba", ["alibaba-gpu.csv"]);
    expect(a.added).toBe(1);
    expect((await price("alibaba", "ecs.gn6i-c4g1.xlarge", "*"))?.usdPerHourMicros).toBe(
      1_152_000n,
    );
  });

  it("a dry run reports what it would add and writes nothing", async () => {
    const before = await db.priceEntry.count();
    const r = await run("tencent", ["tencent-gpu-ap-guangzhou.csv"], {}, true);
    expect(r).toMatchObject({ dryRun: true, added: 0, unchanged: 4 });
    const fresh = makeTestDb().db;
    try {
      const parsed = await parseImport("tencent", [file("tencent-gpu-ap-guangzhou.csv")]);
      const dry = await applyImport(fresh, parsed, { dryRun: true, provider: "tencent" });
      expect(dry.added).toBe(4);
      expect(dry.addedRows[0]).toMatchObject({
        instanceType: "GN6S.LARGE20",
        usdPerHour: "1.110000",
      });
      expect(await fresh.priceEntry.count()).toBe(0);
    } finally {
      await fresh.$disconnect();
    }
    expect(await db.priceEntry.count()).toBe(before);
  });

  it("the CSV flavour of the same offer data gives the same rows as the JSON flavour", async () => {
    // the JSON fixture's products and terms written under the real CSV header (2025-09 file)
    const header = readFileSync(path("aws-ec2-global-sample-20250912225308.csv"), "utf8")
      .split("\n")
      .slice(0, 6);
    const cols = JSON.parse(`[${header[5]}]`) as string[];
    const offer = JSON.parse(
      readFileSync(path("aws-ec2-us-east-1-20260910195514.json"), "utf8"),
    ) as {
      products: Record<
        string,
        { sku: string; productFamily: string; attributes: Record<string, string> }
      >;
      terms: {
        OnDemand: Record<
          string,
          Record<
            string,
            {
              effectiveDate: string;
              priceDimensions: Record<string, { unit: string; pricePerUnit: { USD: string } }>;
            }
          >
        >;
      };
    };
    const byColumn: Record<string, string> = {
      "Instance Type": "instanceType",
      "Operating System": "operatingSystem",
      Tenancy: "tenancy",
      "License Model": "licenseModel",
      "Pre Installed S/W": "preInstalledSw",
      CapacityStatus: "capacitystatus",
      MarketOption: "marketoption",
      GPU: "gpu",
      "Region Code": "regionCode",
      "Instance Family": "instanceFamily",
    };
    const lines = [...header];
    for (const p of Object.values(offer.products)) {
      for (const term of Object.values(offer.terms.OnDemand[p.sku] ?? {})) {
        for (const dim of Object.values(term.priceDimensions)) {
          const v: Record<string, string> = {
            SKU: p.sku,
            TermType: "OnDemand",
            EffectiveDate: term.effectiveDate.slice(0, 10),
            Unit: dim.unit,
            PricePerUnit: dim.pricePerUnit.USD,
            Currency: "USD",
            "Product Family": p.productFamily,
          };
          for (const [c, a] of Object.entries(byColumn)) v[c] = p.attributes[a] ?? "";
          lines.push(cols.map((c) => JSON.stringify(v[c] ?? "")).join(","));
        }
      }
    }
    const parsed = await parseImport("aws", [
      { name: "from-json.csv", source: [lines.join("\n")] },
    ]);
    const fromCsv = parsed.rows.map((r) => `${r.instanceType}=${r.usdPerHourMicros}`).sort();
    expect(fromCsv).toEqual([
      "g4dn.xlarge=526000",
      "g5.2xlarge=1212000",
      "g6.xlarge=804800",
      "p4d.24xlarge=21957642",
      "p5.48xlarge=55040000",
    ]);
  });
});
