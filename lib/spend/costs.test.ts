import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { monthSchema } from "@/lib/zod/schemas/month.ts";
import { buildMonthCosts, reconciliationErrors, type LedgerGroup } from "./breakdown.ts";
import { costsCsv, CSV_COLUMNS, CSV_TOTAL_ROW, hoursDecimal, toCsvRows } from "./csv.ts";
import { monthForecast } from "./forecast.ts";
import {
  addMonths,
  daysInMonth,
  monthBounds,
  monthLabel,
  monthOf,
  monthsEnding,
} from "../core/months.ts";

function group(hostId: string, over: Partial<LedgerGroup> = {}): LedgerGroup {
  return {
    hostId,
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    priced: true,
    costMicros: 1_000_000n,
    idleMicros: 0n,
    upSeconds: 3600,
    ...over,
  };
}

describe("months (UTC)", () => {
  it("computes boundaries, neighbours and lengths", () => {
    expect(monthBounds("2026-02")).toEqual({
      from: new Date("2026-02-01T00:00:00Z"),
      to: new Date("2026-03-01T00:00:00Z"),
    });
    expect(monthBounds("2026-12").to).toEqual(new Date("2027-01-01T00:00:00Z"));
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(monthsEnding("2026-02", 3)).toEqual(["2025-12", "2026-01", "2026-02"]);
    expect(daysInMonth("2028-02")).toBe(29);
    expect(monthOf(new Date("2026-11-30T23:59:59Z"))).toBe("2026-11");
    expect(monthOf(new Date("2026-12-01T00:00:00Z"))).toBe("2026-12");
    expect(monthLabel("2026-11")).toBe("November 2026");
    expect(() => monthBounds("2026-13")).toThrow();
  });

  it("keeps years under 100 as they are (Date.UTC would make 0050 into 1950)", () => {
    expect(monthBounds("0050-03").from.toISOString()).toBe("0050-03-01T00:00:00.000Z");
    expect(addMonths("0099-12", 1)).toBe("0100-01");
  });

  it("the API's month accepts 2000-01 to 2100-12 only, with a clear message", () => {
    expect(monthSchema.safeParse("2000-01").success).toBe(true);
    expect(monthSchema.safeParse("2100-12").success).toBe(true);
    for (const m of ["9999-12", "0000-01", "0099-12", "1999-12", "2101-01"]) {
      const r = monthSchema.safeParse(m);
      expect(r.success, m).toBe(false);
      expect(r.error?.issues[0]?.message).toBe("month must be between 2000-01 and 2100-12");
    }
  });
});

describe("monthForecast", () => {
  const month = "2026-11"; // 30 days
  const from = new Date("2026-11-01T00:00:00Z");
  it("extrapolates month-to-date over the whole month after 3 days of data", () => {
    const r = monthForecast({
      month,
      totalMicros: 10_000_000n,
      dataFrom: from,
      dataTo: new Date("2026-11-11T00:00:00Z"),
      now: new Date("2026-11-11T00:20:00Z"),
    });
    expect(r.forecast).toMatchObject({ micros: 30_000_000n, basisDays: 10 });
    expect(r.note).toBe("Month-to-date $10.00 over 10 d of data × 30 d ÷ 10 d.");
    expect(r.coverageNote).toBeNull();
  });
  it("withholds the forecast before 3 days of data and for closed months", () => {
    const early = monthForecast({
      month,
      totalMicros: 5n,
      dataFrom: from,
      dataTo: new Date("2026-11-03T12:00:00Z"),
      now: new Date("2026-11-03T12:10:00Z"),
    });
    expect(early.forecast).toBeNull();
    expect(early.note).toContain("3 days");
    const closed = monthForecast({
      month,
      totalMicros: 5n,
      dataFrom: from,
      dataTo: new Date("2026-12-01T00:00:00Z"),
      now: new Date("2026-12-02T00:00:00Z"),
    });
    expect(closed.forecast).toBeNull();
    expect(closed.note).toBe("The month has ended: the total is final.");
    expect(closed.coverageNote).toBeNull();
    expect(
      monthForecast({ month, totalMicros: 0n, dataFrom: null, dataTo: null, now: from }).forecast,
    ).toBeNull();
  });
});

describe("buildMonthCosts", () => {
  const groups: LedgerGroup[] = [
    group("h1", { costMicros: 32_772_000n, idleMicros: 1_000_001n }),
    // h1 moved to another team mid-month: still one instance row, two team rows
    group("h1", { team: "vision", costMicros: 1_000_003n, upSeconds: 1800 }),
    group("h2", { provider: "gcp", pricingModel: "spot", costMicros: 7_000_000n }),
    group("dgx", {
      provider: "onprem",
      instanceType: "dgx-a100",
      priced: false,
      costMicros: 0n,
      upSeconds: 7200,
    }),
  ];
  const names = new Map([
    ["h1", "gpu-01"],
    ["h2", "gpu-02"],
    ["dgx", "dgx-a100"],
  ]);
  const costs = buildMonthCosts("2026-11", groups, names, new Map([["h1", 8 * 5400]]));

  it("totals priced hours only and counts unpriced time separately", () => {
    expect(costs.totalMicros).toBe(40_772_003n);
    expect(costs.idleMicros).toBe(1_000_001n);
    expect(costs.unpriced).toEqual({ hosts: 1, upSeconds: 7200 });
  });

  it("makes every breakdown and the instance table sum to the total", () => {
    expect(reconciliationErrors(costs.totalMicros, costs.breakdowns, costs.instances)).toEqual([]);
    expect(costs.breakdowns.team.map((r) => [r.key, r.costMicros])).toEqual([
      ["research", "39772000"],
      ["vision", "1000003"],
    ]);
    const onprem = costs.breakdowns.provider.find((r) => r.key === "onprem");
    expect(onprem).toMatchObject({ costMicros: "0", unpricedSeconds: 7200, hosts: 1 });
  });

  it("reconciles on arbitrary data", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const many = Array.from({ length: 500 }, (_, i) =>
      group(`h${rand(40)}`, {
        provider: ["aws", "gcp", "azure"][rand(3)] ?? "aws",
        team: ["a", "b", "c", "d"][rand(4)] ?? "a",
        project: `p${rand(7)}`,
        priced: rand(10) > 0,
        costMicros: BigInt(rand(99_999_999) + i),
        idleMicros: BigInt(rand(1000)),
      }),
    );
    const c = buildMonthCosts("2026-10", many, new Map());
    expect(reconciliationErrors(c.totalMicros, c.breakdowns, c.instances)).toEqual([]);
    expect(reconciliationErrors(c.totalMicros + 1n, c.breakdowns, c.instances)).toHaveLength(6);
  });

  it("merges an instance's groups into one row", () => {
    expect(costs.instances.map((r) => [r.hostname, r.team, r.costMicros, r.priced])).toEqual([
      ["gpu-01", "research", "33772003", "yes"],
      ["gpu-02", "research", "7000000", "yes"],
      ["dgx-a100", "research", "0", "no"],
    ]);
    expect(costs.instances[0]).toMatchObject({ upSeconds: 5400, gpuSeconds: 43200 });
  });

  it("writes one CSV row per instance with plain decimals", () => {
    const rows = toCsvRows(costs.instances, "USD");
    expect(rows[0]).toMatchObject({
      month: "2026-11",
      hostname: "gpu-01",
      up_hours: "1.50",
      gpu_hours: "12.00",
      cost: "33.772003",
      idle_cost: "1.000001",
      priced: "yes",
    });
    expect(rows[0]).toMatchObject({ cost_rounded: "33.77", idle_cost_rounded: "1.00" });
    expect(rows[2]).toMatchObject({
      cost: "",
      idle_cost: "",
      priced: "no",
      cost_rounded: "",
      idle_cost_rounded: "",
    });
    // the last row holds the totals: exact, and rounded once
    expect(rows[3]).toMatchObject({
      month: "2026-11",
      host_id: "",
      hostname: "Total",
      up_hours: "",
      cost: "40.772003",
      idle_cost: "1.000001",
      priced: CSV_TOTAL_ROW,
      cost_rounded: "40.77",
      idle_cost_rounded: "1.00",
    });
    const text = costsCsv(costs.instances, "USD");
    const lines = text.trim().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(hoursDecimal(1)).toBe("0.00");
    expect(hoursDecimal(3599 * 100)).toBe("99.97");
  });

  it("refuses rows of several months, and totals an empty month at zero", () => {
    const [a, b] = costs.instances;
    if (!a || !b) throw new Error("fixture has instances");
    const mixed = [a, { ...b, month: "2026-10" }];
    expect(() => toCsvRows(mixed, "USD")).toThrow(/span several months: 2026-11, 2026-10/);
    expect(toCsvRows([], "USD")).toEqual([
      expect.objectContaining({ priced: CSV_TOTAL_ROW, cost: "0.000000", cost_rounded: "0.00" }),
    ]);
  });

  it("neutralises spreadsheet formulas in text cells and keeps numbers numeric", () => {
    const evil = costs.instances.map((r, i) => ({
      ...r,
      hostname: ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1)"][i] ?? r.hostname,
      team: "-2+3",
      project: "\tproj",
    }));
    const [header, ...lines] = costsCsv(evil, "USD").trim().split("\n");
    expect(header).toBe(CSV_COLUMNS.join(","));
    const cells = (parse(lines.join("\n")) as string[][]).slice(0, 3);
    expect(cells.map((c) => c[2])).toEqual([
      '\'=HYPERLINK("http://x","y")',
      "'+cmd|' /C calc'!A0",
      "'@SUM(1)",
    ]);
    expect(cells.every((c) => c[7] === "'-2+3" && c[8] === "'\tproj")).toBe(true);
    // numbers untouched
    expect(cells[0]?.slice(9, 14)).toEqual(["1.50", "12.00", "USD", "33.772003", "1.000001"]);
  });
});
