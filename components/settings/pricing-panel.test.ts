import { describe, expect, it } from "vitest";
import type { PricingRowDto } from "@/lib/zod/schemas/pricing.ts";
import { hourlyPriceText, orderPricingRows, pricingModelText } from "./pricing-panel.tsx";

function row(p: Partial<PricingRowDto>): PricingRowDto {
  return {
    id: "p1",
    provider: "aws",
    instanceType: "p5.48xlarge",
    region: "*",
    pricingModel: "on_demand",
    gpuModel: "H100",
    gpuCount: 8,
    usdPerHourMicros: "98320000",
    usdPerHour: "98.320000",
    currency: "USD",
    effectiveFrom: "2025-01-01T00:00:00.000Z",
    source: "list price",
    sourceDate: "2025-01",
    note: null,
    gpuMemoryGiB: 80,
    origin: "shipped",
    updatedBy: null,
    updatedAt: "2025-01-01T00:00:00.000Z",
    retiredAt: null,
    retiredBy: null,
    ...p,
  };
}

describe("pricing catalogue", () => {
  it("orders by provider, then instance type, region, model and newest first", () => {
    const rows = [
      row({ provider: "gcp", instanceType: "a3-highgpu-8g" }),
      row({ instanceType: "p5.48xlarge", pricingModel: "spot" }),
      row({ instanceType: "p4d.24xlarge" }),
      row({ instanceType: "p5.48xlarge", region: "us-east-1" }),
      row({ instanceType: "p5.48xlarge", effectiveFrom: "2026-01-01T00:00:00.000Z" }),
      row({ instanceType: "p5.48xlarge" }),
    ];
    const out = orderPricingRows(rows).map(
      (r) =>
        `${r.provider} ${r.instanceType} ${r.region} ${r.pricingModel} ${r.effectiveFrom.slice(0, 4)}`,
    );
    expect(out).toEqual([
      "aws p4d.24xlarge * on_demand 2025",
      "aws p5.48xlarge us-east-1 on_demand 2025",
      "aws p5.48xlarge * on_demand 2026",
      "aws p5.48xlarge * on_demand 2025",
      "aws p5.48xlarge * spot 2025",
      "gcp a3-highgpu-8g * on_demand 2025",
    ]);
    expect(rows[0]?.provider).toBe("gcp"); // the input is left as it was
  });

  it("formats hourly prices", () => {
    expect(hourlyPriceText(row({}))).toBe("$98.3200/h");
    expect(hourlyPriceText(row({ currency: "not a currency" }))).toBe("98.320000 not a currency/h");
    expect(pricingModelText("on_demand")).toBe("on-demand");
  });
});
