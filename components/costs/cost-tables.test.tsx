import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildMonthCosts, type LedgerGroup } from "@/lib/spend/breakdown.ts";
import { BreakdownTable, ROUNDING_NOTE } from "./breakdown-table.tsx";
import { CostInstanceTable } from "./cost-instance-table.tsx";

// Three half-cent rows: shown one by one they would read $2.01 + $3.01 + $4.01 = $9.03 under a
// $9.02 total. The tables show the largest-remainder cents and say so under the table.
const group = (hostId: string, team: string, cost: bigint): LedgerGroup => ({
  hostId,
  provider: "aws",
  instanceType: "p4d.24xlarge",
  region: "us-east-1",
  pricingModel: "on_demand",
  team,
  project: "llm",
  priced: true,
  costMicros: cost,
  idleMicros: 5_000n,
  upSeconds: 3600,
});
const costs = buildMonthCosts(
  "2026-09",
  [group("x", "a", 2_005_000n), group("y", "b", 3_005_000n), group("z", "c", 4_005_000n)],
  new Map([
    ["x", "gpu-x"],
    ["y", "gpu-y"],
    ["z", "gpu-z"],
  ]),
);
const cells = (html: string) =>
  [...html.matchAll(/<td class="num"[^>]*>(\$[\d,.]+)/g)].map((m) => m[1]);

describe("cost tables show rows that add up", () => {
  it("breakdown: rows and idle rows add up to the totals rounded once", () => {
    const html = renderToString(
      <BreakdownTable
        dimension="team"
        rows={costs.breakdowns.team}
        totalMicros={costs.totalMicros.toString()}
        displayTotalMicros={costs.displayTotalMicros.toString()}
        displayIdleMicros={costs.displayIdleMicros.toString()}
        currency="USD"
      />,
    );
    // spend, idle per row, then the footer's spend and idle totals
    expect(cells(html)).toEqual([
      "$4.01",
      "$0.01",
      "$3.01",
      "$0.01",
      "$2.00",
      "$0.00",
      "$9.02",
      "$0.02",
    ]);
    expect(html).toContain(ROUNDING_NOTE);
    expect(html).toContain('data-micros="9015000"');
  });

  it("per instance: the same rounding, with exact micros kept in data attributes", () => {
    const html = renderToString(
      <CostInstanceTable
        rows={costs.instances}
        currency="USD"
        totalMicros={costs.totalMicros.toString()}
        displayTotalMicros={costs.displayTotalMicros.toString()}
        displayIdleMicros={costs.displayIdleMicros.toString()}
      />,
    );
    expect(cells(html)).toEqual([
      "$4.01",
      "$0.01",
      "$3.01",
      "$0.01",
      "$2.00",
      "$0.00",
      "$9.02",
      "$0.02",
    ]);
    expect(html).toContain('data-micros="4005000"');
    expect(html).toContain('data-display-micros="4010000"');
    expect(html).toContain(ROUNDING_NOTE);
  });
});
