import { describe, expect, it } from "vitest";
import { parseMicros } from "../core/money.ts";
import type { PriceRow } from "../pricing/types.ts";
import { recommendForHost } from "./compute.ts";
import { gpuIdleFacts } from "./gpu-idle.ts";
import { reserved } from "./rule-pricing.ts";
import { RECO_DEFAULTS, type HourRow, type RecoHost } from "./types.ts";

// Right-size before reserve, from GPU-level idle. Own price rows (not the shipped catalogue),
// savings computed by hand: monthly = hourly difference × 730 h.

const NOW = new Date("2026-11-20T12:30:00Z");
const HOUR = 3_600_000;
const GIB = 1024n ** 3n;
const LAST = Date.UTC(2026, 10, 20, 11); // the ledger's newest closed hour
const AWS_OD =
  "AWS EC2 On-Demand pricing, https://aws.amazon.com/ec2/pricing/on-demand/ (us-east-1)";
const AWS_SP =
  "AWS Savings Plans pricing, https://aws.amazon.com/savingsplans/compute-pricing/ (us-east-1)";
const AWS_RI =
  "AWS EC2 Reserved Instances pricing, https://aws.amazon.com/ec2/pricing/reserved-instances/pricing/ (us-east-1)";
// Azure list figures as collected (retrieved 2026-11-09) in
// https://raw.githubusercontent.com/datareceipts/data-receipts/main/109-gpu-pricing/hyperscalers.json
const AZURE =
  "Azure Linux VM pricing (East US), as retrieved 2026-11-09 in github.com/datareceipts/data-receipts 109-gpu-pricing/hyperscalers.json";

function row(
  provider: string,
  instanceType: string,
  pricingModel: string,
  usd: string,
  gpu: [string, number, bigint],
  source: string,
  note: string | null,
  region = "*",
): PriceRow {
  return {
    provider,
    instanceType,
    region,
    pricingModel,
    gpuModel: gpu[0],
    gpuCount: gpu[1],
    gpuMemoryBytes: gpu[2] * GIB,
    usdPerHourMicros: parseMicros(usd),
    currency: "USD",
    effectiveFrom: new Date("2025-01-01T00:00:00Z"),
    source,
    sourceDate: "2025-05",
    note,
  };
}

const H100: [string, number, bigint] = ["H100-80GB", 8, 80n];
const A100 = (n: number): [string, number, bigint] => ["A100-80GB", n, 80n];
const PRICES: PriceRow[] = [
  // the figures: $27,272.80 a month = ($98.32 − $60.96) × 730 (pre-June-2025 list prices)
  row("aws", "p5.48xlarge", "on_demand", "98.32", H100, AWS_OD, "before the June 2025 cut"),
  row("aws", "p5.48xlarge", "reserved", "60.96", H100, AWS_SP, "approximate: 1-year EC2 SP"),
  row("aws", "g4dn.xlarge", "on_demand", "0.526", ["T4", 1, 16n], AWS_OD, null),
  row("aws", "g4dn.xlarge", "reserved", "0.331", ["T4", 1, 16n], AWS_RI, "approximate: 1-year RI"),
  // the East US figure as the catch-all, as the shipped catalogue does; the 2-GPU type only in eastus
  row("azure", "Standard_NC96ads_A100_v4", "on_demand", "19.108", A100(4), AZURE, null),
  row("azure", "Standard_NC48ads_A100_v4", "on_demand", "9.554", A100(2), AZURE, null, "eastus"),
  row("azure", "Standard_NC24ads_A100_v4", "on_demand", "3.673", A100(1), AZURE, null),
];

function host(instanceType: string, provider: string, gpus: number, region: string): RecoHost {
  return {
    id: `h-${instanceType}`,
    hostname: `host-${instanceType}`,
    provider,
    instanceType,
    region,
    pricingModel: "on_demand",
    team: "t",
    project: "p",
    owner: "alice",
    labels: {},
    gpus: Array.from({ length: gpus }, (_, i) => ({
      uuid: `G${i}`,
      index: i,
      name: "GPU",
      memoryTotalBytes: 80n * GIB,
      migMode: false,
      parentUuid: null,
    })),
  };
}

/**
 * 720 closed hours up to the newest: GPU i idle `idle(i)` seconds of every hour, busy GPUs at
 * 90 % and `memGiB`; costs and idle costs split as the ledger does (price ÷ GPUs).
 */
function hours(h: RecoHost, usdPerHour: string, idle: (i: number) => number, memGiB = 60) {
  const out: HourRow[] = [];
  const share = parseMicros(usdPerHour) / BigInt(h.gpus.length);
  for (let k = 0; k < 720; k++) {
    const hourStart = new Date(LAST - (719 - k) * HOUR);
    const base = { hourStart, parentKey: null, upSeconds: 3600, idleHeldSeconds: 0 };
    const gpus = h.gpus.map((g, i) => ({
      ...base,
      gpuKey: g.uuid,
      utilMean: idle(i) >= 3600 ? 0 : 0.9,
      utilP95: idle(i) >= 3600 ? 0 : 0.95,
      memPeakBytes: idle(i) >= 3600 ? 0n : BigInt(memGiB) * GIB,
      memTotalBytes: 80n * GIB,
      idleSeconds: idle(i),
      costMicros: share,
      idleCostMicros: (share * BigInt(idle(i))) / 3600n,
    }));
    const allIdle = Math.min(...gpus.map((g) => g.idleSeconds));
    out.push({
      ...base,
      gpuKey: "host",
      utilMean: 0.5,
      utilP95: 0.95,
      memPeakBytes: null,
      memTotalBytes: null,
      idleSeconds: allIdle,
      costMicros: share * BigInt(h.gpus.length),
      idleCostMicros: gpus.reduce((s, g) => s + g.idleCostMicros, 0n),
    });
    out.push(...gpus);
  }
  return out;
}

const run = (h: RecoHost, rows: HourRow[]) =>
  recommendForHost({ host: h, rows, prices: PRICES, now: NOW }, RECO_DEFAULTS);
const kinds = (h: RecoHost, rows: HourRow[]) =>
  run(h, rows).map((c) => [c.kind, c.monthlySavingMicros]);

describe("right-size before reserve (GPU-level idle)", () => {
  it("the issue's p5.48xlarge, 4 of 8 H100s idle all month: consolidate, not reserve", () => {
    const h = host("p5.48xlarge", "aws", 8, "us-east-1");
    const rows = hours(h, "98.32", (i) => (i < 4 ? 0 : 3600));
    // the host rows see no idle at all; the GPU rows see half the GPU-hours idle
    expect(rows.filter((r) => r.gpuKey === "host").every((r) => r.idleSeconds === 0)).toBe(true);
    const from = new Date(NOW.getTime() - 30 * 24 * HOUR);
    const f = gpuIdleFacts({ host: h, rows, prices: PRICES, now: NOW }, from, NOW, RECO_DEFAULTS);
    expect(f).toMatchObject({ gpuCount: 8, busyP95: 4, surplus: 4, idleShare: 0.5, hours: 719 });
    expect(reserved({ host: h, rows, prices: PRICES, now: NOW }, RECO_DEFAULTS)).toBeNull();
    // no smaller H100 type: the idle GPUs' cost, $98.32 ÷ 8 × 4 = $49.16/h × 730 = $35,886.80
    const [c, ...rest] = run(h, rows);
    expect(rest).toEqual([]);
    expect(c?.kind).toBe("right_size");
    expect(c?.monthlySavingMicros).toBe(35_886_800_000n);
    expect(c?.evidence.hourlySavingMicros).toBe("49160000");
    expect(c?.title).toBe("Consolidate host-p5.48xlarge (p5.48xlarge): 4 of 8 GPUs idle");
    expect(c?.details).toContain("at most 4 of 8 H100-80GB GPUs");
    expect(c?.details).toContain("50 % of its GPU-hours were idle, $35,886.80 a month");
    expect(c?.details).toContain("Once consolidated and busy, p5.48xlarge reserved costs $60.96/h");
    expect(c?.evidence.proposed).toBeNull();
    expect(c?.evidence.metrics).toMatchObject({ idleGpus: 4, gpusNeeded: 4, gpuIdleShare: 0.5 });
    // the evidence chart shows GPU-level idle (50 %), with the host up all day
    expect(c?.evidence.series.at(-2)).toMatchObject({ idlePct: 50, upPct: 100 });
  });

  it("a fully busy 8-GPU host still gets reserve: ($98.32 − $60.96) × 730 = $27,272.80", () => {
    const h = host("p5.48xlarge", "aws", 8, "us-east-1");
    expect(
      kinds(
        h,
        hours(h, "98.32", () => 0),
      ),
    ).toEqual([["reserved", 27_272_800_000n]]);
    // one GPU of eight idle (12.5 % of GPU-hours) stays under the 25 % bar: reserve
    expect(
      kinds(
        h,
        hours(h, "98.32", (i) => (i === 0 ? 3600 : 0)),
      ),
    ).toEqual([["reserved", 27_272_800_000n]]);
    // all eight idle together 30 % of each hour: no GPU to shed, under 50 % idle: reserve
    expect(
      kinds(
        h,
        hours(h, "98.32", () => 1080),
      ),
    ).toEqual([["reserved", 27_272_800_000n]]);
  });

  it("three of eight idle (37.5 %): consolidate, $98.32 ÷ 8 × 3 × 730 = $26,915.10", () => {
    const h = host("p5.48xlarge", "aws", 8, "us-east-1");
    expect(
      kinds(
        h,
        hours(h, "98.32", (i) => (i < 3 ? 3600 : 0)),
      ),
    ).toEqual([["right_size", 26_915_100_000n]]);
  });

  it("a smaller type with the same GPU: NC96ads (4 × A100) → NC48ads or NC24ads", () => {
    const h = host("Standard_NC96ads_A100_v4", "azure", 4, "eastus");
    const two = run(
      h,
      hours(h, "19.108", (i) => (i < 2 ? 0 : 3600)),
    );
    // ($19.108 − $9.554) × 730 = $6,974.42
    expect(two.map((c) => [c.kind, c.monthlySavingMicros])).toEqual([
      ["right_size", 6_974_420_000n],
    ]);
    expect(two[0]?.evidence.proposed?.instanceType).toBe("Standard_NC48ads_A100_v4");
    expect(two[0]?.details).toContain("Reserve only once the GPUs are busy");
    // one busy GPU: ($19.108 − $3.673) × 730 = $11,267.55
    const one = run(
      h,
      hours(h, "19.108", (i) => (i === 0 ? 0 : 3600)),
    );
    expect(one[0]?.evidence.proposed?.instanceType).toBe("Standard_NC24ads_A100_v4");
    expect(one[0]?.monthlySavingMicros).toBe(11_267_550_000n);
  });

  it("region rows and memory headroom decide the fit; otherwise consolidate", () => {
    // outside eastus the 2-GPU type has no price: consolidate, $19.108 ÷ 4 × 2 × 730 = $6,974.42
    const west = host("Standard_NC96ads_A100_v4", "azure", 4, "westeurope");
    const w = run(
      west,
      hours(west, "19.108", (i) => (i < 2 ? 0 : 3600)),
    );
    expect(w.map((c) => [c.title.split(" ")[0], c.monthlySavingMicros])).toEqual([
      ["Consolidate", 6_974_420_000n],
    ]);
    // 70 GiB peak × 1.2 = 84 GiB: no 80 GiB GPU fits the headroom, so no smaller type either
    const east = host("Standard_NC96ads_A100_v4", "azure", 4, "eastus");
    const big = run(
      east,
      hours(east, "19.108", (i) => (i < 2 ? 0 : 3600), 70),
    );
    expect(big[0]?.evidence.proposed).toBeNull();
  });

  it("a 1-GPU host is unchanged: reserve at 40 % idle, nothing at 60 %", () => {
    const h = host("g4dn.xlarge", "aws", 1, "us-east-1");
    // ($0.526 − $0.331) × 730 = $142.35
    expect(
      kinds(
        h,
        hours(h, "0.526", () => 1440),
      ),
    ).toEqual([["reserved", 142_350_000n]]);
    expect(
      kinds(
        h,
        hours(h, "0.526", () => 2160),
      ),
    ).toEqual([]);
  });
});
