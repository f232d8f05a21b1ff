import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulDivRound } from "../core/money.ts";
import { monthBounds } from "../core/months.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { coverageNote, formatSpan, monthForecast, runRateForecast, utcStamp } from "./forecast.ts";

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);

/** Seconds from a span as formatSpan writes it ("29 d 18 h", "3 d 30 min"). */
function spanSeconds(text: string): number {
  const units: Record<string, number> = { d: 86_400, h: 3600, min: 60, s: 1 };
  const parts = [...text.matchAll(/(\d+) (d|h|min|s)\b/g)];
  expect(parts.map((p) => p[0]).join(" ")).toBe(text.trim());
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? ""] ?? NaN), 0);
}

const SPAN = String.raw`((?:\d+ (?:d|h|min|s) ?)+)`;
const FULL = new RegExp(
  String.raw`^Month-to-date (\S+) over ${SPAN} of data × ${SPAN} ÷ ${SPAN}\.$`,
);
const PART = new RegExp(
  String.raw`^Month-to-date (\S+) over ${SPAN} of data \(from (.+); none before\) × \(${SPAN} \+ ${SPAN} to month end\) ÷ ${SPAN}\.$`,
);

/** Re-computes the forecast from the label's own numbers (and the exact month-to-date). */
function recompute(note: string, mtd: bigint): { micros: bigint; money: string; from?: string } {
  const full = FULL.exec(note);
  if (full) {
    const [, money = "", data = "", month = "", divisor = ""] = full;
    expect(spanSeconds(divisor)).toBe(spanSeconds(data));
    return {
      micros: mulDivRound(mtd, BigInt(spanSeconds(month)), BigInt(spanSeconds(data))),
      money,
    };
  }
  const part = PART.exec(note);
  if (!part) throw new Error(`label not understood: ${note}`);
  const [, money = "", data = "", from = "", data2 = "", rest = "", divisor = ""] = part;
  expect([spanSeconds(data2), spanSeconds(divisor)]).toEqual([
    spanSeconds(data),
    spanSeconds(data),
  ]);
  const d = BigInt(spanSeconds(data));
  return { micros: mulDivRound(mtd, d + BigInt(spanSeconds(rest)), d), money, from };
}

describe("formatSpan and utcStamp", () => {
  it("writes exact spans, never rounded", () => {
    expect(formatSpan(29 * 86_400 + 18 * 3600)).toBe("29 d 18 h");
    expect(formatSpan(30 * 86_400)).toBe("30 d");
    expect(formatSpan(3 * 86_400 + 30 * 60)).toBe("3 d 30 min");
    expect(formatSpan(3661)).toBe("1 h 1 min 1 s");
    expect(formatSpan(0)).toBe("0 h");
    expect(() => formatSpan(-1)).toThrow(/whole, non-negative/);
    expect(() => formatSpan(1.5)).toThrow(/whole, non-negative/);
  });
  it("stamps UTC times", () => {
    expect(utcStamp(at("2026-10-01T18:00:00Z"))).toBe("Oct 1 18:00 UTC");
    expect(utcStamp(at("2026-12-31T23:59:00Z"))).toBe("Dec 31 23:59 UTC");
  });
});

describe("the forecast label reproduces the figure", () => {
  it("full month so far: the issue's 29 d 18 h case", () => {
    // November (30 d), data from the 1st to the 30th 18:00: the old label said "÷ 29.8 days"
    const mtd = 12_345_678_901n;
    const f = monthForecast({
      month: "2026-11",
      totalMicros: mtd,
      dataFrom: at("2026-11-01T00:00:00Z"),
      dataTo: at("2026-11-30T18:00:00Z"),
      now: at("2026-11-30T18:05:00Z"),
    });
    expect(f.note).toBe("Month-to-date $12,345.68 over 29 d 18 h of data × 30 d ÷ 29 d 18 h.");
    expect(f.forecast?.micros).toBe(recompute(f.note, mtd).micros);
    expect(f.forecast?.basis).toMatchObject({
      monthToDateMicros: mtd,
      dataSeconds: 29 * 86_400 + 18 * 3600,
      remainingSeconds: 6 * 3600,
      monthSeconds: 30 * 86_400,
    });
    // "÷ 29.8 days × 30" would have given another figure
    expect(mulDivRound(mtd, 300n, 298n)).not.toBe(f.forecast?.micros);
  });

  it("data starting mid-month: the rate over the data span runs to the month end", () => {
    const mtd = 50_000_000n; // $50 over 5 days from the 20th; 6 days left
    const f = monthForecast({
      month: "2026-11",
      totalMicros: mtd,
      dataFrom: at("2026-11-20T00:00:00Z"),
      dataTo: at("2026-11-25T00:00:00Z"),
      now: at("2026-11-25T00:10:00Z"),
    });
    expect(f.note).toBe(
      "Month-to-date $50.00 over 5 d of data (from Nov 20 00:00 UTC; none before) × (5 d + 6 d to month end) ÷ 5 d.",
    );
    expect(f.forecast?.micros).toBe(110_000_000n);
    expect(recompute(f.note, mtd)).toEqual({
      micros: 110_000_000n,
      money: "$50.00",
      from: "Nov 20 00:00 UTC",
    });
    expect(f.coverageNote).toBe("data from Nov 20 00:00 UTC");
  });

  it("for any month-to-date and data span (seeded property)", () => {
    const month = "2026-10"; // 31 days = 744 h
    const { from } = monthBounds(month);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 743 }),
        fc.integer({ min: 1, max: 744 }),
        (mtd, startHour, spanHours) => {
          const dataFrom = new Date(from.getTime() + startHour * HOUR);
          const dataTo = new Date(
            Math.min(dataFrom.getTime() + spanHours * HOUR, from.getTime() + 744 * HOUR),
          );
          const now = new Date(
            Math.min(dataTo.getTime() + 600_000, from.getTime() + 744 * HOUR - 1),
          );
          const f = monthForecast({ month, totalMicros: mtd, dataFrom, dataTo, now });
          const budgetRule = runRateForecast({
            monthToDateMicros: mtd,
            asOf: dataTo,
            dataSince: dataFrom,
          });
          expect(f.forecast?.micros ?? null).toBe(budgetRule.forecastMicros);
          if (f.forecast === null) {
            expect(f.note).toMatch(/^Forecast appears after 3 days of data \(.+ so far\)\.$/);
            return;
          }
          const again = recompute(f.note, mtd);
          expect(again.micros).toBe(f.forecast.micros);
          expect(again.money).toBe(formatMoney(mtd));
          if (startHour > 0) expect(again.from).toBe(utcStamp(dataFrom));
        },
      ),
      { seed: 1512, numRuns: 400 },
    );
  });
});

describe("partial months", () => {
  const october = { month: "2026-10", now: at("2026-11-05T00:00:00Z") };

  it("October with data from the 1st at 18:00 is not called final", () => {
    const f = monthForecast({
      ...october,
      totalMicros: 1n,
      dataFrom: at("2026-10-01T18:00:00Z"),
      dataTo: at("2026-11-01T00:00:00Z"),
    });
    expect(f.coverageNote).toBe("data from Oct 1 18:00 UTC");
    expect(f.note).toBe(
      "The month has ended: the total covers only the hours the ledger has (data from Oct 1 18:00 UTC).",
    );
    expect(f.note).not.toMatch(/final/);
    expect(f.forecast).toBeNull();
  });

  it("says where data ends early, and both ends together", () => {
    expect(
      coverageNote("2026-10", at("2026-10-01T00:00:00Z"), at("2026-10-30T12:00:00Z"), true),
    ).toBe("data until Oct 30 12:00 UTC");
    expect(
      coverageNote("2026-10", at("2026-10-02T00:00:00Z"), at("2026-10-30T12:00:00Z"), true),
    ).toBe("data from Oct 2 00:00 UTC until Oct 30 12:00 UTC");
    // an open month's data always ends before the month does: that is not a gap
    expect(
      coverageNote("2026-10", at("2026-10-01T00:00:00Z"), at("2026-10-30T12:00:00Z"), false),
    ).toBeNull();
    expect(coverageNote("2026-10", null, null, true)).toBeNull();
  });

  it("calls a fully covered closed month final, and an empty one empty", () => {
    const full = monthForecast({
      ...october,
      totalMicros: 1n,
      dataFrom: at("2026-10-01T00:00:00Z"),
      dataTo: at("2026-11-01T00:00:00Z"),
    });
    expect(full).toMatchObject({
      note: "The month has ended: the total is final.",
      coverageNote: null,
    });
    const empty = monthForecast({ ...october, totalMicros: 0n, dataFrom: null, dataTo: null });
    expect(empty.note).toBe("The month has ended with no usage recorded.");
  });
});
