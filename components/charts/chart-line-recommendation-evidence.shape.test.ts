import { describe, expect, it } from "vitest";
import { shapeEvidence } from "./chart-line-recommendation-evidence.shape.ts";

describe("shapeEvidence", () => {
  const day = 86_400_000;
  const p = (t: number, utilP95: number | null, idlePct: number | null) => ({
    t,
    utilP95,
    utilMean: null,
    memPeakPct: null,
    idlePct,
    upPct: 100,
  });
  it("orders days, labels them in UTC and keeps only series with data", () => {
    const c = shapeEvidence([p(2 * day, 10, 0), p(day, null, 100)]);
    expect(c.rows.map((r) => [r.label, r.utilP95, r.idlePct])).toEqual([
      ["02 Jan", null, 100],
      ["03 Jan", 10, 0],
    ]);
    expect(c.lines.map((l) => l.key)).toEqual(["utilP95", "idlePct", "upPct"]);
    expect(c.hasData).toBe(true);
  });
  it("says when there is nothing to draw", () => {
    expect(shapeEvidence([]).hasData).toBe(false);
  });
});
