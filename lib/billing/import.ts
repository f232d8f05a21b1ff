import { HOUR_MS } from "../core/time.ts";
import { monthOf } from "../core/months.ts";
import type { Db } from "../db.ts";
import { convertMicros, rateInForce, type ExchangeRateRow } from "../pricing/fx.ts";
import { MicroCarry, picoToMicros } from "./amount.ts";
import { detectFormat } from "./detect.ts";
import { keyed } from "./formats/cells.ts";
import { hoursOf, MAX_ROW_HOURS, splitOverHours } from "./hours.ts";
import { instanceKey } from "./instance-key.ts";
import { BillFormatError, type BillFormat, type BillRow, type RawRecord } from "./types.ts";

// Imports one bill: its records are streamed, each mapped by its format, GPU-instance compute rows
// kept and split into UTC hours, everything else counted by reason. A preview writes nothing; an
// apply writes the lines in batches and then replaces an earlier import of the same provider(s)
// and month (a newer export of a month supersedes the older one). Memory holds one batch.

/** Lines per write. Prisma's client keeps its recent queries, parameters included, in a cache
 * bounded by count: at 2000 lines a batch that cache alone grew to ~230 MiB; at 250 it stays
 * under ~20 MiB (bench/billing-import.ts runs a 2 GB file under a 192 MiB heap cap). */
const BATCH = 250;

export interface ImportOptions {
  file: string;
  by: string;
  dryRun: boolean;
  rates: readonly ExchangeRateRow[];
  format?: BillFormat;
}

export interface LineData {
  provider: string;
  account: string;
  resourceId: string;
  instanceKey: string;
  instanceType: string;
  region: string;
  hourStart: Date;
  chargeCategory: string;
  pricingModel: string;
  billedMicros: bigint;
  effectiveMicros: bigint;
  listMicros: bigint | null;
  currency: string;
}

export interface ImportReport {
  dryRun: boolean;
  file: string;
  format: BillFormat | null;
  providers: string[];
  period: string | null;
  rowsRead: number;
  rowsKept: number;
  lines: number;
  skipped: Record<string, number>;
  /** the kept rows' totals in US dollars, micro-units (exact decimal strings) */
  billedMicros: string;
  effectiveMicros: string;
  currencies: string[];
  instances: number;
  importId: string | null;
  replaced: number;
}

class Carries {
  private byCurrency = new Map<string, { billed: MicroCarry; effective: MicroCarry }>();
  of(currency: string) {
    let c = this.byCurrency.get(currency);
    if (!c)
      this.byCurrency.set(
        currency,
        (c = { billed: new MicroCarry(), effective: new MicroCarry() }),
      );
    return c;
  }
}

function toLines(
  row: BillRow,
  carry: ReturnType<Carries["of"]>,
  usdPerUnit: string | null,
): LineData[] {
  const hours = hoursOf(row.start, row.end);
  const usd = (m: bigint) => (usdPerUnit ? convertMicros(m, usdPerUnit) : m);
  const billed = splitOverHours(usd(carry.billed.take(row.billed)), hours);
  const effective = splitOverHours(usd(carry.effective.take(row.effective)), hours);
  const list = row.list === null ? null : splitOverHours(usd(picoToMicros(row.list)), hours);
  const key = instanceKey(row.resourceId);
  return hours.map((h, i) => ({
    provider: row.provider,
    account: row.account,
    resourceId: row.resourceId,
    instanceKey: key,
    instanceType: row.instanceType,
    region: row.region,
    hourStart: h.hourStart,
    chargeCategory: row.chargeCategory,
    pricingModel: row.pricingModel,
    billedMicros: billed[i] ?? 0n,
    effectiveMicros: effective[i] ?? 0n,
    listMicros: list ? (list[i] ?? 0n) : null,
    currency: row.currency,
  }));
}

export async function importBill(
  db: Db,
  records: AsyncIterable<RawRecord> | Iterable<RawRecord>,
  opts: ImportOptions,
): Promise<ImportReport> {
  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const months = new Map<string, number>();
  const providers = new Set<string>();
  const currencies = new Set<string>();
  const instances = new Set<string>();
  const carries = new Carries();
  let spec: ReturnType<typeof detectFormat> | null = null;
  let rowsRead = 0;
  let rowsKept = 0;
  let lines = 0;
  let billed = 0n;
  let effective = 0n;
  let batch: LineData[] = [];
  let importId: string | null = null;

  const flush = async () => {
    if (batch.length === 0) return;
    if (!opts.dryRun) {
      if (!importId) importId = await createImport(db, opts);
      const id = importId;
      await db.billingLine.createMany({ data: batch.map((l) => ({ ...l, importId: id })) });
    }
    batch = [];
  };

  try {
    for await (const rec of records) {
      rowsRead++;
      spec ??= detectFormat(Object.keys(rec), opts.format);
      let result;
      try {
        result = spec.map(keyed(rec));
      } catch (e) {
        throw new BillFormatError(`row ${rowsRead + 1}: ${(e as Error).message}`);
      }
      if ("skip" in result) {
        skip(result.skip);
        continue;
      }
      const row = result.row;
      if (row.end.getTime() - row.start.getTime() > MAX_ROW_HOURS * HOUR_MS) {
        skip("period longer than 32 days");
        continue;
      }
      let rate: string | null = null;
      if (row.currency !== "USD") {
        const r = rateInForce(opts.rates, row.currency, row.start);
        if (!r) {
          skip(`no exchange rate for ${row.currency} at ${row.start.toISOString().slice(0, 10)}`);
          continue;
        }
        rate = r.usdPerUnit;
      }
      rowsKept++;
      providers.add(row.provider);
      currencies.add(row.currency);
      for (const line of toLines(row, carries.of(row.currency), rate)) {
        instances.add(`${line.provider}:${line.instanceKey}`);
        const month = monthOf(line.hourStart);
        months.set(month, (months.get(month) ?? 0) + 1);
        billed += line.billedMicros;
        effective += line.effectiveMicros;
        lines++;
        batch.push(line);
        if (batch.length >= BATCH) await flush();
      }
    }
    await flush();
  } catch (e) {
    if (importId) await db.billingImport.delete({ where: { id: importId } }).catch(() => undefined);
    throw e;
  }
  if (rowsRead === 0) throw new BillFormatError("the file has no rows");
  const period =
    [...months.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
  const report: ImportReport = {
    dryRun: opts.dryRun,
    file: opts.file,
    format: spec?.format ?? null,
    providers: [...providers].sort(),
    period,
    rowsRead,
    rowsKept,
    lines,
    skipped: Object.fromEntries([...skipped.entries()].sort((a, b) => b[1] - a[1])),
    billedMicros: billed.toString(),
    effectiveMicros: effective.toString(),
    currencies: [...currencies].sort(),
    instances: instances.size,
    importId: null,
    replaced: 0,
  };
  if (opts.dryRun) return report;
  const id = importId ?? (await createImport(db, opts));
  const provider = report.providers.join(",") || "none";
  await db.billingImport.update({
    where: { id },
    data: {
      provider,
      format: report.format ?? "unknown",
      period: period ?? "",
      rowsRead,
      rowsKept,
      skipped: JSON.stringify(report.skipped),
      billedMicros: billed,
      effectiveMicros: effective,
    },
  });
  const old = await db.billingImport.deleteMany({
    where: { provider, period: period ?? "", id: { not: id } },
  });
  return { ...report, importId: id, replaced: old.count };
}

async function createImport(db: Db, opts: ImportOptions): Promise<string> {
  const row = await db.billingImport.create({
    data: {
      file: opts.file,
      provider: "pending",
      format: opts.format ?? "pending",
      period: "",
      rowsRead: 0,
      rowsKept: 0,
      billedMicros: 0n,
      effectiveMicros: 0n,
      importedBy: opts.by,
    },
  });
  return row.id;
}
