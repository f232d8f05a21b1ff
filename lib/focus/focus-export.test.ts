import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCostMonth } from "@/lib/spend/get-cost-month.ts";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { checkFocusTable, formatIssues, tableFromCsv, tableFromParquet } from "./check.ts";
import { exportFocus } from "./export-focus.ts";
import { EXPECTED, GCP_OD_PRICE, seedFocusLedger } from "./test-ledger.ts";
import type { FocusQuery } from "./query.ts";

// The FOCUS export of a seeded ledger, as CSV and as Parquet, read back and checked against the
// FOCUS 1.2 column definitions, and its money against the ledger to the micro-dollar.

let db: Db;
let ids: Awaited<ReturnType<typeof seedFocusLedger>>;

beforeAll(async () => {
  db = makeTestDb().db;
  ids = await seedFocusLedger(db);
});
afterAll(async () => db.$disconnect());

const NOV: FocusQuery = { format: "csv", granularity: "hourly", month: "2026-11" };

async function download(q: Partial<FocusQuery>, scope: readonly string[] | null = null) {
  const file = await exportFocus({ ...NOV, ...q }, { scope, client: db, now: new Date() });
  const bytes = await new Response(file.body).arrayBuffer();
  return { file, bytes };
}

async function csvRows(q: Partial<FocusQuery> = {}, scope: readonly string[] | null = null) {
  const { bytes } = await download({ ...q, format: "csv" }, scope);
  return tableFromCsv(new TextDecoder().decode(bytes));
}

const micros = (decimal: unknown) => {
  const [w = "0", f = ""] = String(decimal).split(".");
  return BigInt(w) * 1_000_000n + BigInt(f.padEnd(6, "0").slice(0, 6));
};

describe("FOCUS CSV export", () => {
  it("passes the FOCUS 1.2 column/type check, hourly and daily", async () => {
    for (const granularity of ["hourly", "daily"] as const) {
      const table = await csvRows({ granularity });
      expect(formatIssues(checkFocusTable(table)), granularity).toEqual([]);
      expect(table.rows).toHaveLength(
        granularity === "hourly" ? EXPECTED.hourlyRows : EXPECTED.dailyRows,
      );
    }
  });

  it("carries the ledger's money exactly: EffectiveCost sums to the costs page's total", async () => {
    const page = await getCostMonth("2026-11", {
      scope: null,
      client: db,
      now: new Date("2026-12-02T00:00:00Z"),
    });
    for (const granularity of ["hourly", "daily"] as const) {
      const { rows } = await csvRows({ granularity });
      const sum = (col: string) => rows.reduce((s, r) => s + micros(r[col]), 0n);
      expect(sum("EffectiveCost")).toBe(EXPECTED.effectiveMicros);
      expect(sum("EffectiveCost").toString()).toBe(page.totalMicros);
      expect(sum("BilledCost")).toBe(EXPECTED.billedMicros);
    }
  });

  it("writes an on-demand host-hour with the cloud's instance id, tags and GPU columns", async () => {
    const { rows } = await csvRows();
    const od = rows.filter((r) => r.ResourceName === "gpu-od-1");
    expect(od).toHaveLength(3);
    expect(od[0]).toMatchObject({
      ResourceId: "i-0abc123def4567890",
      ResourceType: "Virtual Machine",
      ProviderName: "AWS",
      PublisherName: "AWS",
      InvoiceIssuerName: "AWS",
      ServiceName: "Amazon Elastic Compute Cloud",
      ServiceCategory: "Compute",
      ServiceSubcategory: "Virtual Machines",
      RegionId: "us-east-1",
      AvailabilityZone: "us-east-1a",
      BillingCurrency: "USD",
      BillingPeriodStart: "2026-11-01T00:00:00Z",
      BillingPeriodEnd: "2026-12-01T00:00:00Z",
      ChargePeriodStart: "2026-11-01T00:00:00Z",
      ChargePeriodEnd: "2026-11-01T01:00:00Z",
      ChargeCategory: "Usage",
      ChargeClass: null,
      ChargeFrequency: "Usage-Based",
      PricingCategory: "Standard",
      BilledCost: "32.772600",
      EffectiveCost: "32.772600",
      ListCost: "32.772600",
      ContractedCost: "32.772600",
      ListUnitPrice: "32.772600",
      PricingQuantity: "1.000000000",
      PricingUnit: "Hours",
      ConsumedQuantity: "1.000000000",
      SkuId: "p4d.24xlarge",
      SkuPriceId: "p4d.24xlarge:us-east-1:on_demand",
      CommitmentDiscountId: null,
      x_GpuModel: "A100",
      x_GpuCount: "8",
      x_GpuHours: "8.000000000",
      x_MeanUtilization: "0.5",
      x_HostId: ids.od,
    });
    expect(JSON.parse(String(od[0]?.Tags))).toEqual({
      instance_id: "i-0abc123def4567890",
      zone: "us-east-1a",
      env: "prod",
      team: "research",
      project: "llm",
      owner: "alice",
    });
    expect(JSON.parse(String(od[0]?.SkuPriceDetails))).toEqual({
      InstanceType: "p4d.24xlarge",
      GpuCount: 8,
    });
    expect(od[1]).toMatchObject({ x_IdleCost: "1.000000", x_MeanUtilization: "0.7" });
  });

  it("prices spot at the ledger and lists it at the on-demand price, partial hours exactly", async () => {
    const { rows } = await csvRows();
    const spot = rows.filter((r) => r.ResourceName === "gpu-spot-1");
    // no instance_id label: the host name stands in
    expect(spot.map((r) => r.ResourceId)).toEqual(["gpu-spot-1", "gpu-spot-1"]);
    expect(spot[1]).toMatchObject({
      PricingCategory: "Dynamic",
      BilledCost: "6.000000",
      EffectiveCost: "6.000000",
      ListCost: "16.386300",
      ContractedCost: "16.386300",
      ListUnitPrice: "32.772600",
      PricingQuantity: "0.500000000",
      x_ListPriceSource: "on_demand_catalogue",
      x_GpuCount: "0",
      x_MeanUtilization: null,
    });
    // a label value that looks like a formula stays inside the JSON cell, which starts with "{"
    expect(JSON.parse(String(spot[0]?.Tags)).env).toBe('=HYPERLINK("http://x","y")');
  });

  it("amortizes reserved hours: BilledCost 0, EffectiveCost the hourly cost, a commitment row", async () => {
    const { rows } = await csvRows();
    const res = rows.find((r) => r.ResourceName === "gpu-res-1");
    expect(res).toMatchObject({
      ResourceId: "8313458431234567890",
      ProviderName: "Google Cloud",
      ServiceName: "Compute Engine",
      PricingCategory: "Committed",
      BilledCost: "0.000000",
      EffectiveCost: "2.000000",
      ListCost: "3.673000",
      ListUnitPrice: (Number(GCP_OD_PRICE) / 1e6).toFixed(6),
      CommitmentDiscountId: "gpufleet:reserved:gcp:us-central1:a2-highgpu-1g",
      CommitmentDiscountStatus: "Used",
      CommitmentDiscountCategory: "Usage",
      CommitmentDiscountType: "Reserved",
      CommitmentDiscountQuantity: "1.000000000",
      CommitmentDiscountUnit: "Hours",
    });
    const onprem = rows.find((r) => r.ResourceName === "dgx-a100-01");
    expect(onprem).toMatchObject({
      ProviderName: "On-Premises",
      ResourceType: "Bare Metal Server",
      RegionId: null,
      RegionName: null,
      BilledCost: "0.000000",
      EffectiveCost: "5.000000",
      ListCost: "5.000000",
      x_ListPriceSource: "ledger",
    });
  });

  it("sums a host's day into one daily row; October and unpriced hours stay out", async () => {
    const { rows } = await csvRows({ granularity: "daily" });
    const od = rows.filter((r) => r.ResourceName === "gpu-od-1");
    expect(od.map((r) => [r.ChargePeriodStart, r.ChargePeriodEnd, r.EffectiveCost])).toEqual([
      ["2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z", "65.545200"],
      ["2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z", "32.772600"],
    ]);
    expect(od[0]).toMatchObject({ PricingQuantity: "2.000000000", x_GpuHours: "16.000000000" });
    expect(od[0]?.x_MeanUtilization).toBe("0.6");
    const spot = rows.find((r) => r.ResourceName === "gpu-spot-1");
    expect(spot).toMatchObject({ PricingQuantity: "1.500000000", ListCost: "49.158900" });
    expect(rows.some((r) => r.ResourceName === "gpu-unpriced")).toBe(false);
    const { file } = await download({ granularity: "daily" });
    expect(file.unpriced).toEqual({ hostHours: 1, upSeconds: 3600 });
  });

  it("a team-limited scope sees its teams' hosts only", async () => {
    const { rows } = await csvRows({}, ["research"]);
    expect(new Set(rows.map((r) => r.ResourceName))).toEqual(new Set(["gpu-od-1", "gpu-spot-1"]));
    expect(rows.reduce((s, r) => s + micros(r.EffectiveCost), 0n)).toBe(
      EXPECTED.researchEffectiveMicros,
    );
    const { file } = await download({}, ["research"]);
    expect(file.unpriced.hostHours).toBe(0);
  });

  it("a range of days, and an empty month, are still valid FOCUS files", async () => {
    const range = await csvRows({ month: undefined, from: "2026-11-02", to: "2026-11-02" });
    expect(range.rows.map((r) => r.ResourceName)).toEqual(["gpu-od-1"]);
    const empty = await csvRows({ month: "2026-09" });
    expect(empty.rows).toEqual([]);
    expect(empty.columns).toContain("BilledCost");
    expect(formatIssues(checkFocusTable(empty))).toEqual([]);
  });
});

describe("FOCUS Parquet export", () => {
  it("reads back with FOCUS types and passes the check, with the CSV's exact money", async () => {
    for (const granularity of ["hourly", "daily"] as const) {
      const { bytes, file } = await download({ format: "parquet", granularity });
      expect(file.contentType).toBe("application/vnd.apache.parquet");
      expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe("PAR1");
      const table = await tableFromParquet(bytes);
      expect(formatIssues(checkFocusTable(table)), granularity).toEqual([]);
      const csv = await csvRows({ granularity });
      expect(table.rows).toHaveLength(csv.rows.length);
      table.rows.forEach((row, i) => {
        for (const col of ["BilledCost", "EffectiveCost", "ListCost", "x_IdleCost"]) {
          expect(BigInt(Math.round(Number(row[col]) * 1e6)), col).toBe(micros(csv.rows[i]?.[col]));
        }
        expect((row.ChargePeriodStart as Date).toISOString().replace(".000Z", "Z")).toBe(
          csv.rows[i]?.ChargePeriodStart,
        );
        expect(row.Tags).toEqual(JSON.parse(String(csv.rows[i]?.Tags)));
      });
    }
  });

  it("declares decimals, timestamps, JSON and required columns in its schema", async () => {
    const { bytes } = await download({ format: "parquet" });
    const { types = {} } = await tableFromParquet(bytes);
    expect(types.BilledCost).toMatchObject({
      type: "INT64",
      converted_type: "DECIMAL",
      scale: 6,
      precision: 18,
      repetition_type: "REQUIRED",
    });
    expect(types.PricingQuantity).toMatchObject({ converted_type: "DECIMAL", scale: 9 });
    expect(types.ChargePeriodStart?.logical_type).toEqual({
      type: "TIMESTAMP",
      isAdjustedToUTC: true,
      unit: "MILLIS",
    });
    expect(types.Tags).toMatchObject({ converted_type: "JSON", repetition_type: "REQUIRED" });
    expect(types.ChargeClass?.repetition_type).toBe("OPTIONAL");
    expect(types.x_GpuCount?.type).toBe("INT32");
  });

  it("splits rows into row groups and streams each as it is written", async () => {
    const { prepareFocusExport } = await import("./load-focus.ts");
    const { focusParquetStream } = await import("./parquet.ts");
    const prepared = await prepareFocusExport(
      { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-12-01T00:00:00Z") },
      { client: db },
    );
    const chunks: Uint8Array[] = [];
    for await (const c of focusParquetStream(prepared.batches("hourly"), { rowGroupRows: 3 })) {
      chunks.push(c);
    }
    expect(chunks.length).toBeGreaterThan(1);
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    chunks.reduce((at, c) => (bytes.set(c, at), at + c.byteLength), 0);
    const { parquetMetadata } = await import("hyparquet");
    expect(parquetMetadata(bytes.buffer).row_groups.length).toBeGreaterThan(1);
    const table = await tableFromParquet(bytes.buffer);
    expect(table.rows).toHaveLength(EXPECTED.hourlyRows);
    expect(formatIssues(checkFocusTable(table))).toEqual([]);
  });
});
