import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import spec from "@/lib/focus/spec/focus-1.2-columns.json" with { type: "json" };
import { CUR2_REQUIRED } from "./formats/cur2.ts";
import { FOCUS_REQUIRED } from "./formats/focus.ts";
import { importBill, type ImportReport } from "./import.ts";
import { readBillFile } from "./read.ts";

// Each export format on its small fixture (lib/billing/fixtures/README.md cites the schemas):
// what is kept, what is skipped and why, and the totals to the micro. A preview touches no store.

const FIXTURES = join(import.meta.dirname, "fixtures");
const noDb = null as unknown as Db;
const CNY = [
  {
    currency: "CNY",
    usdPerUnit: "0.14",
    effectiveFrom: new Date("2026-11-01T00:00:00Z"),
    source: "test",
    sourceDate: "2026-11",
  },
];

async function preview(path: string, file = path): Promise<ImportReport> {
  return importBill(noDb, readBillFile(path), { file, by: "test", dryRun: true, rates: CNY });
}

const fixture = (name: string) => join(FIXTURES, name);

describe("FOCUS exports", () => {
  it("uses only column names the FOCUS 1.2 specification defines (plus x_ extensions)", () => {
    const ids = new Set(spec.columns.map((c) => c.columnId));
    for (const name of ["focus-aws.csv", "focus-azure.csv", "focus-gcp.csv"]) {
      const header = readFileSync(fixture(name), "utf8").split("\n")[0]?.split(",") ?? [];
      expect(header.filter((h) => !ids.has(h) && !h.startsWith("x_"))).toEqual([]);
    }
    expect(FOCUS_REQUIRED.filter((c) => !ids.has(c))).toEqual([]);
  });

  it("keeps an AWS export's GPU instance hours, splits a day into 24 hours, and says what it skipped", async () => {
    const r = await preview(fixture("focus-aws.csv"));
    expect(r.format).toBe("focus");
    expect(r.providers).toEqual(["aws"]);
    expect(r.rowsRead).toBe(9);
    expect(r.rowsKept).toBe(5);
    expect(r.lines).toBe(4 + 24);
    expect(r.skipped).toEqual({
      "not compute": 1,
      tax: 1,
      "not a GPU instance": 1,
      "commitment or upfront purchase (no instance hour)": 1,
    });
    // 32.7726 + 0.4123456789 + 0 + 786.5424 - 10 = 809.7273456789 → 809.727346 (rounded once)
    expect(r.billedMicros).toBe("809727346");
    expect(r.effectiveMicros).toBe(String(809_727_346n + 70_543_200n));
    expect(r.instances).toBe(3);
    expect(r.period).toBe("2026-11");
  });

  it("reads Azure resource ids and GCP resource names, and GCP's per-SKU rows of a GPU instance", async () => {
    const az = await preview(fixture("focus-azure.csv"));
    expect(az.providers).toEqual(["azure"]);
    expect(az.rowsKept).toBe(2);
    expect(az.skipped).toEqual({ "not compute": 1 });
    expect(az.effectiveMicros).toBe(String(19_450_000n + 52_600n));
    const gcp = await preview(fixture("focus-gcp.csv"));
    expect(gcp.providers).toEqual(["gcp"]);
    expect(gcp.rowsKept).toBe(2);
    expect(gcp.instances).toBe(1);
    expect(gcp.skipped).toEqual({ "not a GPU instance": 1 });
    expect(gcp.billedMicros).toBe("88702000");
  });

  it("reads the same export gzipped and as Parquet, with the same result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-bill-"));
    const csv = readFileSync(fixture("focus-aws.csv"));
    writeFileSync(join(dir, "b.csv.gz"), gzipSync(csv));
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    const names = Object.keys(rows[0] ?? {});
    const money = new Set(["BilledCost", "EffectiveCost", "ListCost"]);
    const buf = parquetWriteBuffer({
      columnData: names.map((name) =>
        money.has(name)
          ? { name, type: "DOUBLE", data: rows.map((r) => (r[name] ? Number(r[name]) : null)) }
          : { name, type: "STRING", data: rows.map((r) => r[name] ?? "") },
      ),
    });
    writeFileSync(join(dir, "b.parquet"), new Uint8Array(buf));
    const plain = await preview(fixture("focus-aws.csv"), "x");
    expect(await preview(join(dir, "b.csv.gz"), "x")).toEqual(plain);
    expect(await preview(join(dir, "b.parquet"), "x")).toEqual(plain);
  });
});

describe("AWS CUR 2.0", () => {
  it("keeps instance hours: on-demand, savings plan (covered and negation), reserved, spot", async () => {
    const r = await preview(fixture("cur2.csv"));
    expect(r.format).toBe("cur2");
    expect(r.rowsKept).toBe(5);
    expect(r.skipped).toEqual({
      "not compute (no instance hours)": 1,
      "line item type Tax": 1,
      "not compute": 1,
      "line item type SavingsPlanRecurringFee": 1,
    });
    // billed (unblended): 32.7726 + 98.32 - 98.32 + 0 + 0.4123456789
    expect(r.billedMicros).toBe("33184946");
    // effective: 32.7726 + 70.5432 + 0 + 20.1234567891 + 0.4123456789 = 123.851602468
    expect(r.effectiveMicros).toBe("123851602");
  });

  it("names the columns it needs from AWS's data dictionary", () => {
    const header = readFileSync(fixture("cur2.csv"), "utf8").split("\n")[0] ?? "";
    for (const c of CUR2_REQUIRED) expect(header.split(",")).toContain(c);
  });
});

describe("Alibaba Cloud and Tencent Cloud bill details", () => {
  it("converts an Alibaba CNY bill at the hour's rate, reading Beijing times", async () => {
    const r = await preview(fixture("alibaba.csv"));
    expect(r.format).toBe("alibaba");
    expect(r.currencies).toEqual(["CNY"]);
    expect(r.rowsKept).toBe(3);
    expect(r.lines).toBe(1 + 24 + 1);
    expect(r.skipped).toEqual({ "not a GPU instance": 1, "not compute": 1 });
    // (8.531 + 216 - 1) CNY × 0.14
    expect(r.billedMicros).toBe(String(1_194_340n + 30_240_000n - 140_000n));
  });

  it("reads a Tencent bill detail: GPU CVM hours kept, spot told apart, the rest skipped", async () => {
    const r = await preview(fixture("tencent.csv"));
    expect(r.format).toBe("tencent");
    expect(r.rowsKept).toBe(2);
    expect(r.skipped).toEqual({ "not a GPU instance": 1, "not compute": 1 });
    expect(r.billedMicros).toBe("1331000");
  });

  it("refuses a CNY bill without an exchange rate for its hours, by reason", async () => {
    const r = await importBill(noDb, readBillFile(fixture("alibaba.csv")), {
      file: "a",
      by: "t",
      dryRun: true,
      rates: [],
    });
    expect(r.rowsKept).toBe(0);
    expect(r.skipped["no exchange rate for CNY at 2026-11-03"]).toBe(2);
  });
});

describe("files that are not bills", () => {
  it("refuses an unknown header with what it expected, and a bad amount with its row", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-bill-"));
    writeFileSync(join(dir, "x.csv"), "a,b\n1,2\n");
    await expect(preview(join(dir, "x.csv"))).rejects.toThrow(/not a known billing export/);
    writeFileSync(join(dir, "y.csv"), "EffectiveCost,BilledCost\n1,2\n");
    await expect(preview(join(dir, "y.csv"))).rejects.toThrow(
      /needs the columns ChargePeriodStart/,
    );
    const bad = readFileSync(fixture("focus-aws.csv"), "utf8").replace("32.7726,111", "lots,111");
    writeFileSync(join(dir, "z.csv"), bad);
    await expect(preview(join(dir, "z.csv"))).rejects.toThrow(
      /row 2: column BilledCost: not an amount/,
    );
    writeFileSync(join(dir, "g.csv.gz"), Buffer.from([0x1f, 0x8b, 1, 2, 3, 4]));
    await expect(preview(join(dir, "g.csv.gz"))).rejects.toThrow(/gzip/);
  });
});
