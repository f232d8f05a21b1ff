import { describe, expect, it } from "vitest";
import type { BenchmarkDto } from "../benchmarks/schema.ts";
import { compareWorkRows } from "./compare-rows.ts";
import type { TypeModelRowDto } from "./schema.ts";

const measured: TypeModelRowDto = {
  provider: "aws",
  instanceType: "g6.xlarge",
  gpus: "1× L4",
  model: "Qwen/Qwen3-8B",
  mixed: false,
  unit: "output_tokens",
  hosts: 2,
  units: 3_000_000,
  hours: 31,
  perSecondPerHost: 26.9,
  costMicros: "3219200",
  perMicros: "1073067",
  per: "$ per million output tokens",
  status: "ok",
};
const bench = (instanceType: string): BenchmarkDto => ({
  id: instanceType,
  provider: "aws",
  instanceType,
  workload: "MLPerf Inference v4.1 Llama 2 70B",
  unit: "tokens/s",
  value: 24525,
  source: "MLPerf",
  sourceDate: "2025-11-03",
  note: null,
  origin: "shipped",
  updatedBy: null,
  updatedAt: "2026-11-01T00:00:00.000Z",
  costs: [
    {
      pricingModel: "spot",
      region: "us-east-1",
      usdPerHourMicros: "30000000",
      per: "$ per million tokens",
      micros: "339800",
    },
    {
      pricingModel: "on_demand",
      region: "us-east-1",
      usdPerHourMicros: "98320000",
      per: "$ per million tokens",
      micros: "1113600",
    },
  ],
});

describe("compareWorkRows", () => {
  it("says which figures were measured here and which were published for another machine", () => {
    const rows = compareWorkRows(
      [measured],
      [bench("p5.48xlarge"), bench("g6.xlarge")],
      "2026-11",
      "2026-11",
    );
    expect(rows.map((r) => [r.instanceType, r.kind, r.label, r.perMicros])).toEqual([
      ["g6.xlarge", "measured", "measured here, 31 hours, this month", "1073067"],
      ["g6.xlarge", "published", "published", "1113600"],
      ["p5.48xlarge", "published", "published, not measured on this type", "1113600"],
    ]);
    expect(compareWorkRows([measured], [], "2026-10", "2026-11")[0]?.label).toBe(
      "measured here, 31 hours, in 2026-10",
    );
  });
});
