import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { rowDtos, totalDto, type ReconRowIn } from "@/lib/billing/reconcile-rows.ts";
import { ReconRowsTable } from "./reconcile-tables.tsx";

// Three half-cent rows (and a credit): shown one by one they would not add up to the bill's total;
// the table shows the API's largest-remainder cents, so its rows and its total row agree.

const row = (name: string, effective: bigint, estimate: bigint): ReconRowIn => ({
  kind: "host",
  key: name,
  name,
  team: "t",
  provider: "aws",
  pricingModel: "on_demand",
  instanceType: "p4d.24xlarge",
  region: "us-east-1",
  account: "1",
  billedHours: 1,
  ledgerHours: 1,
  estimate,
  billed: effective,
  effective,
  reasons: new Map(),
});

describe("the reconciliation's per-host table", () => {
  it("shows rows that add up to the total row, to the cent, and each row's variance", () => {
    const rows = [
      row("a", 2_005_000n, 2_000_000n),
      row("b", 3_005_000n, 3_000_000n),
      row("c", 4_005_000n, 4_010_000n),
      row("d", -1_000_000n, 0n),
    ];
    const dtos = rowDtos(rows);
    // 2.005 + 3.005 + 4.005 − 1 = 8.015 → $8.02; cent by cent: 2.01 + 3.01 + 4.00 − 1.00
    expect(dtos.map((d) => d.display.effective)).toEqual(["2.01", "3.01", "4.00", "-1.00"]);
    expect(dtos.map((d) => d.display.variance)).toEqual(["0.01", "0.01", "-0.01", "-1.00"]);
    const html = renderToString(
      <ReconRowsTable id="t" title="Per host" rows={dtos} total={totalDto(rows)} />,
    );
    const cells = [...html.matchAll(/<td class="num" data-col="[a-z]+"[^>]*>([^<]*)<\/td>/g)].map(
      (m) => m[1],
    );
    // per row: estimate, billed, effective, variance; then the total row
    expect(cells.filter((_, i) => i % 4 === 2)).toEqual([
      "$2.01",
      "$3.01",
      "$4.00",
      "-$1.00",
      "$8.02",
    ]);
    expect(html).toContain("Total (the imported bills)");
  });
});
