import { describe, expect, it } from "vitest";
import type { WorkUnit } from "../../exporter/contract.ts";
import { byTypeAndModel, unitCosts, type HostMeta, type LedgerHour } from "./unit-cost-math.ts";

// A fixture ledger worked by hand (figures in the comments are the expected results).
const H = (h: number) => Date.UTC(2026, 10, 3, h); // explicit hours; no wall clock
const G6 = 804_800n; // g6.xlarge, $0.8048 an hour
const G5 = 1_006_000n; // g5.xlarge, $1.006 an hour

const hosts: HostMeta[] = [
  {
    id: "a",
    hostname: "g6-a",
    provider: "aws",
    instanceType: "g6.xlarge",
    gpus: "1× L4",
    team: "ml",
  },
  {
    id: "b",
    hostname: "g6-b",
    provider: "aws",
    instanceType: "g6.xlarge",
    gpus: "1× L4",
    team: "ml",
  },
  {
    id: "m",
    hostname: "g5-mix",
    provider: "aws",
    instanceType: "g5.xlarge",
    gpus: "1× A10G",
    team: "ml",
  },
  { id: "u", hostname: "odd", provider: "aws", instanceType: "x9.large", gpus: null, team: "ml" },
];
const lh = (hostId: string, h: number, cost: bigint, priced = true): LedgerHour => ({
  hostId,
  hourStart: H(h),
  costMicros: cost,
  priced,
});
const ledger: LedgerHour[] = [
  lh("a", 10, G6),
  lh("a", 11, G6),
  lh("a", 12, G6),
  lh("a", 9, G6), // no counters reported this hour: not part of the work's cost
  lh("b", 10, G6),
  lh("m", 10, G5),
  lh("m", 11, G5),
  lh("m", 12, G5),
  lh("u", 10, 0n, false),
];
const w = (hostId: string, h: number, unit: WorkUnit, modelName: string, units: number) => ({
  hostId,
  hourStart: H(h),
  unit,
  modelName,
  units,
});
const Q = "Qwen/Qwen3-8B";
const L = "meta-llama/Llama-3.1-8B";
const work = [
  w("a", 10, "output_tokens", Q, 1_200_000),
  w("a", 11, "output_tokens", Q, 800_000),
  w("a", 12, "output_tokens", Q, 0), // the server was up and idle: the hour is part of the cost
  w("a", 13, "output_tokens", Q, 500_000), // no ledger hour yet: left out
  w("a", 10, "prompt_tokens", Q, 600_000), // under a million tokens
  w("b", 10, "output_tokens", Q, 1_000_000),
  w("m", 10, "output_tokens", Q, 3_000_000),
  w("m", 10, "output_tokens", L, 1_000_000),
  w("m", 11, "output_tokens", Q, 0),
  w("m", 11, "output_tokens", L, 0),
  w("m", 12, "output_tokens", L, 1_000_000),
  w("u", 10, "requests", "", 5000),
];

const pick = (rows: ReturnType<typeof unitCosts>, host: string, unit: string, model?: string) =>
  rows.find(
    (r) => r.hostId === host && r.unit === unit && (model === undefined || r.modelName === model),
  );

describe("unitCosts", () => {
  const rows = unitCosts({ hosts, ledger, work, split: false });

  it("divides the ledger's cost of the counted hours, idle ones included, by the counted units", () => {
    // g6-a: hours 10, 11, 12 → 3 × 804,800 = 2,414,400 µ$ for 2,000,000 output tokens
    // → 2,414,400 × 1,000,000 / 2,000,000 = 1,207,200 µ$ = $1.2072 per million output tokens
    expect(pick(rows, "a", "output_tokens")).toMatchObject({
      modelName: Q,
      mixed: false,
      units: 2_000_000,
      hours: 3,
      costMicros: 2_414_400n,
      perMicros: 1_207_200n,
      per: "$ per million output tokens",
      status: "ok",
      perSecond: 2_000_000 / (3 * 3600),
    });
  });

  it("says not enough data below a million tokens, and unpriced when an hour has no price", () => {
    expect(pick(rows, "a", "prompt_tokens")).toMatchObject({
      status: "not_enough_data",
      perMicros: null,
      units: 600_000,
      hours: 1,
    });
    expect(pick(rows, "u", "requests")).toMatchObject({ status: "unpriced", perMicros: null });
  });

  it("gives a mixed host one per-host figure unless asked to split", () => {
    // 3 hours × 1,006,000 = 3,018,000 µ$ for 5,000,000 tokens → 603,600 µ$ per million
    expect(pick(rows, "m", "output_tokens")).toMatchObject({
      modelName: null,
      models: [Q, L],
      mixed: true,
      split: false,
      units: 5_000_000,
      costMicros: 3_018_000n,
      perMicros: 603_600n,
    });
  });

  it("splits a mixed host by each hour's share of work, idle hours by the window's shares", () => {
    const split = unitCosts({ hosts, ledger, work, split: true });
    // hour 10: 1,006,000 split 3:1 → Qwen 754,500, Llama 251,500
    // hour 11 (idle): 1,006,000 split by the window's 3M:2M → Qwen 603,600, Llama 402,400
    // hour 12: Llama alone → 1,006,000
    // Qwen 1,358,100 for 3M → 452,700 per million; Llama 1,659,900 for 2M → 829,950
    expect(pick(split, "m", "output_tokens", Q)).toMatchObject({
      split: true,
      units: 3_000_000,
      hours: 2,
      costMicros: 1_358_100n,
      perMicros: 452_700n,
    });
    expect(pick(split, "m", "output_tokens", L)).toMatchObject({
      units: 2_000_000,
      hours: 3,
      costMicros: 1_659_900n,
      perMicros: 829_950n,
    });
    // one model: splitting changes nothing
    expect(pick(split, "a", "output_tokens")).toEqual(pick(rows, "a", "output_tokens"));
  });
});

describe("byTypeAndModel", () => {
  it("adds hosts of one type serving one model", () => {
    const groups = byTypeAndModel(unitCosts({ hosts, ledger, work, split: false }));
    // g6-a (2,414,400 µ$, 2M tokens, 3 h) + g6-b (804,800 µ$, 1M tokens, 1 h)
    // → 3,219,200 × 1,000,000 / 3,000,000 = 1,073,066.67 → 1,073,067 µ$ per million
    expect(
      groups.find((g) => g.instanceType === "g6.xlarge" && g.unit === "output_tokens"),
    ).toMatchObject({
      model: Q,
      hosts: 2,
      units: 3_000_000,
      hours: 4,
      costMicros: 3_219_200n,
      perMicros: 1_073_067n,
    });
    expect(groups.find((g) => g.instanceType === "g5.xlarge")).toMatchObject({
      model: `${Q} + ${L}`,
      mixed: true,
    });
  });
});
