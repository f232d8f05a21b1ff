import { describe, expect, it } from "vitest";
import { CATALOGUE, catalogueRows } from "./catalogue.ts";
import { PRICING_MODELS } from "./types.ts";

const key = (r: { provider: string; instanceType: string; pricingModel: string }) =>
  `${r.provider}/${r.instanceType}/${r.pricingModel}`;
const keys = new Set(CATALOGUE.map(key));

describe("seed catalogue", () => {
  it("converts every price exactly and keeps keys unique", () => {
    const rows = catalogueRows();
    expect(rows).toHaveLength(CATALOGUE.length);
    const unique = new Set(
      rows.map((r) => `${key(r)}/${r.region}/${r.effectiveFrom.toISOString()}`),
    );
    expect(unique.size).toBe(rows.length);
    for (const r of rows) {
      expect(r.usdPerHourMicros).toBeGreaterThan(0n);
      expect(r.gpuCount).toBeGreaterThan(0);
      expect(PRICING_MODELS).toContain(r.pricingModel);
      expect(r.source).toMatch(/https:\/\//);
      expect(r.sourceDate).toMatch(/^\d{4}-\d{2}/);
    }
  });

  it("holds the published figures", () => {
    const price = (provider: string, type: string, model = "on_demand") =>
      catalogueRows().find((r) => key(r) === `${provider}/${type}/${model}`)?.usdPerHourMicros;
    expect(price("aws", "g4dn.xlarge")).toBe(526_000n);
    expect(price("aws", "g5.xlarge")).toBe(1_006_000n);
    expect(price("aws", "p3.2xlarge")).toBe(3_060_000n);
    expect(price("aws", "p4d.24xlarge")).toBe(32_772_600n);
    expect(price("aws", "p5.48xlarge")).toBe(98_320_000n);
    expect(price("gcp", "a2-highgpu-1g")).toBe(3_673_000n);
    expect(price("gcp", "a2-highgpu-1g", "spot")).toBe(1_443_000n);
    expect(price("azure", "Standard_ND96asr_v4")).toBe(27_197_000n);
    expect(price("alibaba", "ecs.gn6i-c4g1.xlarge")).toBe(1_152_000n);
  });

  it("has a spot row for every AWS, GCP and Azure type, and the reserved rows", () => {
    for (const r of CATALOGUE.filter((c) => c.provider !== "alibaba")) {
      expect(keys.has(`${r.provider}/${r.instanceType}/spot`), r.instanceType).toBe(true);
    }
    for (const t of [
      "aws/p4d.24xlarge",
      "aws/p5.48xlarge",
      "aws/p5en.48xlarge",
      "gcp/a3-highgpu-8g",
      "azure/Standard_ND96asr_v4",
      "aws/g5.xlarge",
      "aws/g4dn.xlarge",
    ]) {
      expect(keys.has(`${t}/reserved`), t).toBe(true);
    }
  });

  it("prices spot and reserved below on-demand, and marks them approximate", () => {
    const rows = catalogueRows();
    for (const r of rows.filter((x) => x.pricingModel !== "on_demand")) {
      const od = rows.find(
        (x) => x.pricingModel === "on_demand" && x.instanceType === r.instanceType,
      );
      expect(od, r.instanceType).toBeDefined();
      expect(r.usdPerHourMicros).toBeLessThan(od?.usdPerHourMicros ?? 0n);
      if (r.pricingModel === "reserved") expect(r.note).toMatch(/approximate.*1-year/);
    }
  });

  it("leaves dgx-a100 out so an on-prem host shows as unpriced", () => {
    expect(CATALOGUE.some((r) => r.instanceType.toLowerCase().includes("dgx"))).toBe(false);
  });
});
