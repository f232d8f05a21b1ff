import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { SHIPPED_RATES } from "./rates-catalogue.ts";
import { H10FormatError, parseH10Csv } from "./rates-h10.ts";
import { importRates } from "./rates-import.ts";
import { installShippedRates } from "./rates.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./import/fixtures/${name}`, import.meta.url), "utf8");

function problems(text: string): readonly string[] {
  try {
    parseH10Csv(text, "f.csv");
  } catch (e) {
    if (e instanceof H10FormatError) return e.problems;
    throw e;
  }
  throw new Error("parsed");
}

describe("parseH10Csv", () => {
  it("reads a G.5 monthly series as rates from the first of each month, inverted exactly", () => {
    const { rows, series } = parseH10Csv(fixture("h10-cny-monthly-2024-10-2025-02.csv"), "m.csv");
    expect(series).toEqual([{ series: "RXI_N.M.CH", currency: "CNY", rates: 5, noData: 0 }]);
    expect(rows.map((r) => [r.effectiveFrom.toISOString().slice(0, 10), r.usdPerUnit])).toEqual([
      ["2024-10-01", "0.14108153"],
      ["2024-11-01", "0.13876747"],
      ["2024-12-01", "0.13734943"],
      ["2025-01-01", "0.13706704"],
      ["2025-02-01", "0.13748728"],
    ]);
    // the same figures the release ships from FRED's copy of the series (EXCHUS)
    for (const r of rows) {
      const shipped = SHIPPED_RATES.find(
        (s) => s.effectiveFrom.getTime() === r.effectiveFrom.getTime(),
      );
      expect(shipped?.usdPerUnit, r.sourceDate).toBe(r.usdPerUnit);
    }
    expect(rows[4]).toMatchObject({ currency: "CNY", sourceDate: "2025-02" });
    expect(rows[4]?.source).toContain("RXI_N.M.CH");
    expect(rows[4]?.source).toContain("7.2734 CNY per USD average for 2025-02, from m.csv");
  });

  it("reads daily series from their day, skips ND, and keeps a USD-per-unit series as it is", () => {
    const { rows, series } = parseH10Csv(fixture("h10-cny-eur-daily.csv"), "d.csv");
    expect(series).toEqual([
      { series: "RXI_N.B.CH", currency: "CNY", rates: 1, noData: 3 },
      { series: "RXI$US_N.B.EU", currency: "EUR", rates: 2, noData: 2 },
    ]);
    expect(rows.map((r) => `${r.currency} ${r.sourceDate} ${r.usdPerUnit}`)).toEqual([
      "CNY 2026-08-21 0.14878738",
      "EUR 2026-09-04 1.1618",
      "EUR 2026-09-08 1.1627",
    ]);
    const crlf = parseH10Csv(fixture("h10-cny-daily-2026-08.csv"), "crlf.csv");
    expect(crlf.rows).toHaveLength(1);
  });

  it("refuses a file with bad lines whole, naming each line", () => {
    expect(problems(fixture("h10-cny-daily.malformed.csv"))).toEqual([
      "line 8: 3 fields, expected 2",
      "line 9, RXI_N.B.CH: not a plausible rate: 1 CNY is worth between 0.05 and 0.5 USD",
      'line 10: "2026-09-31" is not a date (YYYY-MM-DD)',
      'line 11, RXI_N.B.CH: "seven" is not a rate (a positive decimal or ND)',
    ]);
  });

  it("says what is wrong with the header: not the download's layout, or not an exchange rate", () => {
    expect(problems("DATE,DEXCHUS\n2026-08-21,6.7210\n")[0]).toBe(
      'line 1: expected "Series Description", found "DATE" (download the CSV with labels included, series in columns)',
    );
    const index = fixture("h10-cny-daily-2026-08.csv").replaceAll("RXI_N.B.CH", "JRXWTFB_N.B");
    expect(problems(index)).toEqual([
      'line 5, column 2: "H10/H10/JRXWTFB_N.B" is not an H.10 exchange-rate series (H10/H10/RXI_N.B.CH or RXI$US_N.M.EU style)',
    ]);
    const scaled = fixture("h10-cny-daily-2026-08.csv").replace(
      '"Multiplier:","1"',
      '"Multiplier:","100"',
    );
    expect(problems(scaled)[0]).toMatch(/^line 3, column 2: multiplier "100"/);
    const twice = fixture("h10-cny-daily-2026-08.csv") + "2026-08-21,6.7210\r\n";
    expect(problems(twice)).toEqual(["line 9: a second CNY rate for 2026-08-21"]);
    const empty = fixture("h10-cny-daily-2026-08.csv").replace(
      "2026-08-21,6.7210",
      "2026-08-21,ND",
    );
    expect(problems(empty)).toEqual(["no rates in the file (every date ND)"]);
  });
});

describe("importRates", () => {
  let db: Db;
  beforeAll(async () => {
    db = makeTestDb().db;
    await installShippedRates(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("adds new rates as a person's, leaves equal ones, reports a different one and writes it nowhere", async () => {
    const monthly = parseH10Csv(fixture("h10-cny-monthly-2024-10-2025-02.csv"), "m.csv").rows;
    const daily = parseH10Csv(fixture("h10-cny-eur-daily.csv"), "d.csv").rows;
    // the monthly file equals the shipped rates; the daily one adds two EUR rates (CNY is shipped)
    const dry = await importRates(db, [...monthly, ...daily], "f@example.com", { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, added: 2, unchanged: 6, conflicts: [] });
    expect(await db.exchangeRate.count({ where: { currency: "EUR" } })).toBe(0);
    const done = await importRates(db, daily, "f@example.com", { dryRun: false });
    expect(done).toMatchObject({
      added: 2,
      unchanged: 1,
      span: { EUR: ["2026-09-04", "2026-09-08"] },
    });
    const eur = await db.exchangeRate.findMany({ where: { currency: "EUR" } });
    expect(eur.map((r) => [r.origin, r.updatedBy])).toEqual([
      ["user", "f@example.com"],
      ["user", "f@example.com"],
    ]);
    // a file that says another figure for a day already there: reported, the stored one stays
    const other = daily.map((r) => (r.currency === "EUR" ? { ...r, usdPerUnit: "1.2" } : r));
    const again = await importRates(db, other, "f@example.com", { dryRun: false });
    expect(again.added).toBe(0);
    expect(again.conflicts).toEqual([
      expect.objectContaining({
        currency: "EUR",
        existing: "1.1618",
        imported: "1.2",
        origin: "user",
      }),
      expect.objectContaining({ currency: "EUR", existing: "1.1627", imported: "1.2" }),
    ]);
    expect(
      (await db.exchangeRate.findMany({ where: { currency: "EUR" } }))
        .map((r) => r.usdPerUnit)
        .sort(),
    ).toEqual(["1.1618", "1.1627"]);
  });

  it("refuses rates that repeat a day across files before writing any", async () => {
    const a = parseH10Csv(fixture("h10-cny-daily-2026-08.csv"), "a.csv").rows;
    const fresh = a.map((r) => ({ ...r, effectiveFrom: new Date("2026-10-01T00:00:00Z") }));
    await expect(importRates(db, [...fresh, ...fresh], "f", { dryRun: false })).rejects.toThrow(
      "a second CNY rate from 2026-10-01",
    );
    expect(
      await db.exchangeRate.count({ where: { effectiveFrom: new Date("2026-10-01T00:00:00Z") } }),
    ).toBe(0);
  });
});
