import { describe, expect, it } from "vitest";
import { trialReport } from "./trial-report.ts";
import { trialCandidates } from "../recommendations/rule-trial.ts";
import type { TypeModelRow, UnitCostRow } from "./unit-cost-math.ts";

const Q = "Qwen/Qwen3-8B";
const from = new Date(Date.UTC(2026, 10, 10, 0));
const to = new Date(Date.UTC(2026, 10, 11, 7));
const host = { hostname: "g6-trial", provider: "aws", instanceType: "g6.xlarge" };

const trialRow = (over: Partial<UnitCostRow> = {}): UnitCostRow => ({
  hostId: "t",
  hostname: "g6-trial",
  provider: "aws",
  instanceType: "g6.xlarge",
  gpus: "1× L4",
  unit: "output_tokens",
  modelName: Q,
  models: [Q],
  mixed: false,
  split: false,
  units: 100_000_000,
  hours: 31,
  perSecond: 0,
  costMicros: 21_000_000n,
  perMicros: 210_000n, // $0.21 per million output tokens
  per: "$ per million output tokens",
  status: "ok",
  ...over,
});
const other = (over: Partial<TypeModelRow> = {}): TypeModelRow => ({
  provider: "aws",
  instanceType: "g5.xlarge",
  gpus: "1× A10G",
  model: Q,
  mixed: false,
  unit: "output_tokens",
  hosts: 4,
  units: 2_000_000_000,
  hours: 720,
  perSecondPerHost: 0,
  costMicros: 680_000_000n,
  perMicros: 340_000n, // $0.34 per million
  per: "$ per million output tokens",
  status: "ok",
  ...over,
});

describe("trialReport", () => {
  it("compares the trial's cost per unit with the other types at their throughput (worked by hand)", () => {
    const r = trialReport({ host, from, to, trial: [trialRow()], baseline: [other()] });
    // g5: 680,000,000 µ$ over 720 host-hours → × 730 × 4 hosts / 720 = 2,757,777,778 µ$ a month
    // its work: 2e9 tokens / 720 h × 730 × 4 = 8,111,111,111 tokens a month
    // at the trial's $0.21 per million: 8,111,111,111 × 210,000 / 1e6 = 1,703,333,333 µ$
    // saving: 2,757,777,778 − 1,703,333,333 = 1,054,444,445 µ$ ≈ $1,054 a month
    expect(r.status).toBe("compared");
    expect(r.others).toEqual([
      {
        provider: "aws",
        instanceType: "g5.xlarge",
        hosts: 4,
        hours: 720,
        perMicros: "340000",
        monthlySavingMicros: "1054444445",
      },
    ]);
    expect(r.summary).toBe(
      "Qwen/Qwen3-8B on g6.xlarge: $0.21 per million output tokens vs $0.34 on g5.xlarge (measured 31 h vs 720 h); moving the 4 g5.xlarge hosts would save $1,054/month at the same throughput",
    );
    const [c] = trialCandidates([{ trialId: "tr1", hostId: "t", name: "l4", report: r }]);
    expect(c).toMatchObject({
      kind: "trial_move",
      hostId: "t",
      monthlySavingMicros: 1_054_444_445n,
      details: r.summary,
    });
    expect(c?.evidence.metrics).toMatchObject({ otherHours: 720, trialHours: 31 });
  });

  it("leaves out mixed hosts, its own type and figures without enough data; says why there is nothing", () => {
    const baseline = [
      other({ mixed: true, model: Q }),
      other({ instanceType: "g6.xlarge" }),
      other({ instanceType: "g4dn.xlarge", status: "not_enough_data", perMicros: null }),
    ];
    const r = trialReport({ host, from, to, trial: [trialRow()], baseline });
    expect(r.status).toBe("nothing_to_compare");
    expect(r.others).toEqual([]);
    expect(trialCandidates([{ trialId: "x", hostId: "t", name: "n", report: r }])).toEqual([]);
    const thin = trialReport({
      host,
      from,
      to,
      trial: [trialRow({ status: "not_enough_data", perMicros: null, units: 5 })],
      baseline: [other()],
    });
    expect(thin.status).toBe("not_enough_data");
    expect(thin.summary).toContain("not enough work measured");
  });

  it("says when the trial's type costs more, and recommends nothing then", () => {
    const r = trialReport({
      host,
      from,
      to,
      trial: [trialRow({ perMicros: 500_000n })],
      baseline: [other()],
    });
    expect(r.summary).toContain("would cost");
    expect(BigInt(r.others[0]?.monthlySavingMicros ?? "0")).toBeLessThan(0n);
    expect(trialCandidates([{ trialId: "x", hostId: "t", name: "n", report: r }])).toEqual([]);
  });
});
