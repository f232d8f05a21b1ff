import { describe, expect, it } from "vitest";
import { AWS_P_CUT, CATALOGUE, catalogueRows } from "./catalogue.ts";
import { lookupPrice } from "./lookup.ts";
import { SHIPPED_RATES, invertQuote } from "./rates-catalogue.ts";
import { PRICING_MODELS } from "./types.ts";

const key = (r: { provider: string; instanceType: string; pricingModel: string }) =>
  `${r.provider}/${r.instanceType}/${r.pricingModel}`;
const keys = new Set(CATALOGUE.map(key));
const rows = catalogueRows();
const at = (iso: string) => new Date(iso);

/** the price of the "*" row in force at `when` */
function fallback(provider: string, type: string, model = "on_demand", when = "2026-11-15") {
  const r = lookupPrice(rows, {
    provider,
    instanceType: type,
    region: "nowhere-1",
    pricingModel: model,
    at: at(`${when}T00:00:00Z`),
  });
  return r.priced ? r.usdPerHourMicros : null;
}

/** the on-demand price a host in `region` gets at `when` (its own row, else the fallback) */
function priceIn(type: string, region: string, when: string) {
  const r = lookupPrice(rows, {
    provider: "aws",
    instanceType: type,
    region,
    pricingModel: "on_demand",
    at: at(`${when}T00:00:00Z`),
  });
  return r.priced ? r.usdPerHourMicros : null;
}

describe("seed catalogue", () => {
  it("converts every price exactly and keeps keys unique", () => {
    expect(rows).toHaveLength(CATALOGUE.length);
    const unique = new Set(
      rows.map((r) => `${key(r)}/${r.region}/${r.effectiveFrom.toISOString()}/${r.site ?? ""}`),
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

  it("holds the published figures, the June 2025 cut as two dated rows", () => {
    expect(fallback("aws", "g4dn.xlarge")).toBe(526_000n);
    expect(fallback("aws", "g5.xlarge")).toBe(1_006_000n);
    expect(fallback("aws", "p3.2xlarge")).toBe(3_060_000n);
    expect(fallback("aws", "p4d.24xlarge", "on_demand", "2025-05-31")).toBe(32_772_600n);
    expect(fallback("aws", "p4d.24xlarge")).toBe(21_957_642n);
    expect(fallback("aws", "p5.48xlarge", "on_demand", "2025-05-31")).toBe(98_320_000n);
    expect(fallback("aws", "p5.48xlarge")).toBe(55_040_000n);
    expect(fallback("aws", "p5en.48xlarge")).toBe(63_296_000n);
    expect(fallback("gcp", "a2-highgpu-1g")).toBe(3_673_000n);
    expect(fallback("gcp", "a2-highgpu-1g", "spot")).toBe(1_443_000n);
    expect(fallback("azure", "Standard_ND96asr_v4")).toBe(27_197_000n);
    expect(fallback("alibaba", "ecs.gn6i-c4g1.xlarge")).toBe(1_152_000n);
    const cut = CATALOGUE.filter((r) => r.instanceType === "p5.48xlarge" && r.region === "*");
    expect(cut.filter((r) => r.pricingModel === "on_demand").map((r) => r.effectiveFrom)).toEqual([
      at("2024-01-01T00:00:00Z"),
      AWS_P_CUT,
    ]);
  });

  it("has regional rows from the offer files, Tencent rows and Alibaba rows in CNY", () => {
    const regional = (type: string, region: string) =>
      rows.find((r) => r.instanceType === type && r.region === region)?.usdPerHourMicros;
    expect(regional("p5.48xlarge", "us-west-2")).toBe(55_040_000n);
    expect(regional("p4d.24xlarge", "us-west-2")).toBe(21_957_640n);
    expect(regional("p4d.24xlarge", "eu-west-1")).toBe(23_715_690n);
    expect(regional("g4dn.xlarge", "eu-west-1")).toBe(587_000n);
    expect(regional("GN7.2XLARGE32", "ap-guangzhou")).toBe(1_260_000n);
    const cny = rows.filter((r) => r.currency === "CNY" && r.provider === "alibaba");
    expect(cny.map((r) => r.instanceType).sort()).toEqual([
      "ecs.gn6i-c4g1.xlarge",
      "ecs.gn6v-c8g1.2xlarge",
      "ecs.gn7e-c16g1.4xlarge",
      "ecs.gn7i-c8g1.2xlarge",
    ]);
    const gn6i = cny.find((r) => r.instanceType === "ecs.gn6i-c4g1.xlarge");
    expect(gn6i?.localPerHourMicros).toBe(11_630_000n);
    // listed at the rate in force at its effectiveFrom (2023-07-28, 7.1488 CNY per USD, stored as
    // 0.13988362): 11.63 × 0.13988362 = 1.6268465006 → 1.626847 (half-up, once)
    expect(gn6i?.usdPerHourMicros).toBe(1_626_847n);
    expect(gn6i?.rates?.length).toBe(SHIPPED_RATES.length);
  });

  it("prices Tencent GN10Xp and GT4 in CNY in the mainland regions, converted per hour", () => {
    const tencent = (type: string, region: string, when: string) =>
      lookupPrice(rows, {
        provider: "tencent",
        instanceType: type,
        region,
        pricingModel: "on_demand",
        at: at(`${when}T00:00:00Z`),
      });
    for (const region of ["ap-guangzhou", "ap-shanghai", "ap-beijing"]) {
      // February 2025: 7.2734 CNY per USD, stored as 0.13748728
      // 11.98 × 0.13748728 = 1.6470976144 → 1.647098; 28.64 × 0.13748728 = 3.9376356992 → 3.937636
      expect(tencent("GN10Xp.2XLARGE40", region, "2025-02-15")).toMatchObject({
        priced: true,
        region,
        localCurrency: "CNY",
        localPerHourMicros: 11_980_000n,
        usdPerHourMicros: 1_647_098n,
        gpuModel: "V100-32GB",
      });
      expect(tencent("GT4.4XLARGE96", region, "2025-02-15")).toMatchObject({
        priced: true,
        localPerHourMicros: 28_640_000n,
        usdPerHourMicros: 3_937_636n,
        gpuModel: "A100-40GB",
      });
    }
    // January 2025 converts at that month's rate (7.2957): the CNY figure stays, the USD moves
    const jan = tencent("GN10Xp.2XLARGE40", "ap-guangzhou", "2025-01-15");
    expect(jan).toMatchObject({ priced: true, localPerHourMicros: 11_980_000n });
    expect(jan.priced && jan.usdPerHourMicros).not.toBe(1_647_098n);
    // only the mainland regions the page prices: no "*" row, so elsewhere it stays unpriced
    expect(tencent("GN10Xp.2XLARGE40", "ap-singapore", "2025-02-15").priced).toBe(false);
    const cn = CATALOGUE.filter((r) => r.provider === "tencent" && r.local?.currency === "CNY");
    expect(cn).toHaveLength(9);
    expect(cn.every((r) => r.site === "china")).toBe(true);
    for (const r of cn) {
      expect(r.source).toContain("tencentyun/qcloud-documents/blob/8ec072968ccbe6d60a8de2a7");
      expect(r.note).toMatch(/^approximate/);
    }
  });

  it("ships CNY rates as the exact inverse of the Federal Reserve quote", () => {
    expect(invertQuote("7.2734")).toBe("0.13748728");
    expect(invertQuote("8")).toBe("0.12500000");
    for (const r of SHIPPED_RATES) expect(r.source).toMatch(/federalreserve|stlouisfed/);
  });

  it("has a spot row for every AWS, GCP and Azure fallback type, and the reserved rows", () => {
    const fallbacks = CATALOGUE.filter(
      (c) => c.region === "*" && ["aws", "gcp", "azure"].includes(c.provider),
    );
    for (const r of fallbacks) {
      expect(keys.has(`${r.provider}/${r.instanceType}/spot`), r.instanceType).toBe(true);
    }
    for (const t of [
      "aws/p4d.24xlarge",
      "aws/p5.48xlarge",
      "aws/p5en.48xlarge",
      "gcp/a3-highgpu-8g",
    ]) {
      expect(keys.has(`${t}/reserved`), t).toBe(true);
    }
  });

  it("prices spot and reserved below on-demand at the same time, spot indicative, commitments derived", () => {
    for (const r of rows.filter((x) => x.pricingModel !== "on_demand")) {
      const when = r.effectiveFrom.toISOString().slice(0, 10);
      // p5en had no on-demand fallback before the cut: it was sold in us-west-2 (and us-east-2)
      const od =
        fallback(r.provider, r.instanceType, "on_demand", when) ??
        priceIn(r.instanceType, "us-west-2", when);
      expect(od, r.instanceType).not.toBeNull();
      const own = fallback(r.provider, r.instanceType, r.pricingModel, when);
      expect(own ?? 0n, `${r.instanceType} ${r.pricingModel} ${when}`).toBeLessThan(od ?? 0n);
      if (r.pricingModel === "reserved") expect(r.note).toMatch(/^derived, not read.*1-year/);
      if (r.pricingModel === "spot") {
        expect(r.note).toContain(
          `indicative: one reading of the spot price, as of ${r.sourceDate}`,
        );
      }
    }
    const p4dReserved = rows.find(
      (r) =>
        r.instanceType === "p4d.24xlarge" &&
        r.pricingModel === "reserved" &&
        r.effectiveFrom >= AWS_P_CUT,
    );
    expect(p4dReserved?.note).toContain("read $13.921094");
  });

  it("starts the regional AWS rows where the rows they refine start, not on the offer file's date", () => {
    // March 2026, before the offer file's 2026-09-01 terms date: eu-west-1 has its own prices
    expect(priceIn("g4dn.xlarge", "eu-west-1", "2026-03-15")).toBe(587_000n);
    expect(priceIn("p4d.24xlarge", "eu-west-1", "2026-03-15")).toBe(23_715_690n);
    // before the June 2025 cut, eu-west-1 p4d falls back to the pre-cut "*" row
    expect(priceIn("p4d.24xlarge", "eu-west-1", "2025-05-15")).toBe(32_772_600n);
    for (const r of rows.filter((x) => x.provider === "aws" && x.region !== "*")) {
      const refined = rows
        .filter(
          (f) =>
            f.region === "*" &&
            f.instanceType === r.instanceType &&
            f.pricingModel === r.pricingModel &&
            f.effectiveFrom <= r.effectiveFrom,
        )
        .map((f) => f.effectiveFrom.getTime());
      const start = refined.length > 0 ? Math.max(...refined) : r.effectiveFrom.getTime();
      expect(r.effectiveFrom.getTime(), `${r.instanceType} ${r.region}`).toBe(start);
      expect(r.effectiveFrom.toISOString()).not.toBe("2026-09-01T00:00:00.000Z");
    }
  });

  it("prices p5en before the cut in us-east-2 and us-west-2, where it was sold, not us-east-1", () => {
    for (const region of ["us-east-2", "us-west-2"]) {
      expect(priceIn("p5en.48xlarge", region, "2025-03-15")).toBe(84_800_000n);
      expect(priceIn("p5en.48xlarge", region, "2025-07-15")).toBe(63_296_000n);
    }
    expect(priceIn("p5en.48xlarge", "us-east-1", "2025-03-15")).toBeNull();
    expect(priceIn("p5en.48xlarge", "us-east-1", "2025-07-15")).toBe(63_296_000n);
    const preCut = CATALOGUE.filter(
      (r) => r.instanceType === "p5en.48xlarge" && r.effectiveFrom < AWS_P_CUT,
    );
    for (const r of preCut) expect(r.source, r.pricingModel).not.toMatch(/\(us-east-1\)/);
  });

  it("leaves dgx-a100 out so an on-prem host shows as unpriced", () => {
    expect(CATALOGUE.some((r) => r.instanceType.toLowerCase().includes("dgx"))).toBe(false);
  });

  it("prices a China-site Tencent account from the CNY list at the month's rate, others in USD", () => {
    const accountSites = { "1250000000": "china" };
    const sited = rows.map((r) => (r.site ? { ...r, accountSites } : r));
    const gn7 = (labels: string | null, when: string) =>
      lookupPrice(sited, {
        provider: "tencent",
        instanceType: "GN7.2XLARGE32",
        region: "ap-guangzhou",
        pricingModel: "on_demand",
        labels,
        at: at(`${when}T00:00:00Z`),
      });
    const china = JSON.stringify({ cloud_account: "1250000000", team: "ml" });
    // February 2025: 7.2734 CNY per USD (0.13748728): 8.68 × 0.13748728 = 1.1933895904 → 1.193390
    expect(gn7(china, "2025-02-15")).toMatchObject({
      priced: true,
      site: "china",
      localCurrency: "CNY",
      localPerHourMicros: 8_680_000n,
      usdPerHourMicros: 1_193_390n,
    });
    // the same hour on an international account (or a host with no account label): the USD list
    for (const labels of [JSON.stringify({ cloud_account: "1250000001" }), null, "not json"]) {
      expect(gn7(labels, "2025-02-15")).toMatchObject({
        priced: true,
        site: "international",
        usdPerHourMicros: 1_260_000n,
        localCurrency: null,
      });
    }
    // November 2026 converts at the rate in force then (6.7210 from 2026-08-21): 1.291474...
    expect(gn7(china, "2026-11-15")).toMatchObject({ usdPerHourMicros: 1_291_474n });
    // an international account's GN10Xp in Shanghai: the international list has none, so the
    // China-site CNY row prices it rather than nothing
    const gn10 = lookupPrice(sited, {
      provider: "tencent",
      instanceType: "GN10Xp.2XLARGE40",
      region: "ap-shanghai",
      pricingModel: "on_demand",
      at: at("2025-02-15T00:00:00Z"),
    });
    expect(gn10).toMatchObject({ priced: true, site: "china", usdPerHourMicros: 1_647_098n });
  });
});
