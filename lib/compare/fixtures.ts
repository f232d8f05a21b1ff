import type { PriceRow } from "../pricing/types.ts";

// Small, pinned catalogue rows for the comparison's unit tests (prices as in the shipped
// catalogue, lib/pricing/catalogue.ts, so the hand-worked figures read like the real page).

const GIB = 1024n ** 3n;

export function row(
  over: Partial<PriceRow> & Pick<PriceRow, "provider" | "instanceType">,
): PriceRow {
  return {
    region: "*",
    pricingModel: "on_demand",
    gpuModel: "H100-80GB",
    gpuCount: 8,
    gpuMemoryBytes: 80n * GIB,
    usdPerHourMicros: 0n,
    currency: "USD",
    effectiveFrom: new Date("2024-01-01T00:00:00Z"),
    source: "test fixture",
    sourceDate: "2025-01",
    note: null,
    ...over,
  };
}

export const NOW = new Date("2026-11-15T12:00:00Z");

export const ROWS: PriceRow[] = [
  row({ provider: "aws", instanceType: "p5.48xlarge", usdPerHourMicros: 98_320_000n }),
  row({
    provider: "aws",
    instanceType: "p5.48xlarge",
    pricingModel: "spot",
    usdPerHourMicros: 35_000_000n,
  }),
  row({ provider: "gcp", instanceType: "a3-highgpu-8g", usdPerHourMicros: 87_800_000n }),
  row({
    provider: "gcp",
    instanceType: "a3-highgpu-8g",
    pricingModel: "spot",
    usdPerHourMicros: 28_000_000n,
  }),
  row({
    provider: "aws",
    instanceType: "g4dn.xlarge",
    gpuModel: "T4",
    gpuCount: 1,
    gpuMemoryBytes: 16n * GIB,
    usdPerHourMicros: 526_000n,
  }),
  row({
    provider: "azure",
    instanceType: "Standard_NC4as_T4_v3",
    gpuModel: "T4",
    gpuCount: 1,
    gpuMemoryBytes: 16n * GIB,
    usdPerHourMicros: 526_000n,
  }),
  row({
    provider: "tencent",
    instanceType: "GN7.2XLARGE32",
    region: "ap-guangzhou",
    gpuModel: "T4",
    gpuCount: 1,
    gpuMemoryBytes: 16n * GIB,
    usdPerHourMicros: 1_270_000n,
    currency: "CNY",
  }),
];
