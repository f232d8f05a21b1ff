import "server-only";
import { formatMicros } from "../../core/money.ts";
import type { Db } from "../../db.ts";
import { shortUsd } from "./price.ts";
import { ImportFormatError, type ImportRow, type ParsedImport } from "./types.ts";

// Writes parsed price-list rows in one transaction. A row whose key (provider, instance type,
// region, pricing model, effective date) is new is added as the user's own (origin "user": no
// release ever overwrites it); one that exists at the same price is left alone; one that exists
// at another price is a conflict, reported and never overwritten: a price change is a new row with
// a later effective date, or an edit of that row on /settings. Dry run writes nothing.

export interface ImportConflict {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  effectiveFrom: string;
  storedUsdPerHour: string;
  importedUsdPerHour: string;
  storedOrigin: string;
  where: string;
}

export interface ImportResult {
  dryRun: boolean;
  added: number;
  unchanged: number;
  conflicts: ImportConflict[];
  skippedNonGpu: number;
  skipped: Record<string, number>;
  describes: string[];
  /** the rows added (or, in a dry run, that would be), first 200: for the preview */
  addedRows: ImportedRowDto[];
}

export interface ImportedRowDto {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  gpuModel: string;
  gpuCount: number;
  usdPerHour: string;
  effectiveFrom: string;
  note: string | null;
}

const PREVIEW_ROWS = 200;
/** interactive transactions default to 5 s; a region's GPU prices are thousands of rows */
const TRANSACTION_MS = 120_000;

interface Key {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  effectiveFrom: Date;
}

export function priceKey(r: Key): string {
  return [r.provider, r.instanceType, r.region, r.pricingModel, r.effectiveFrom.toISOString()].join(
    "|",
  );
}

function sameContent(a: ImportRow, b: ImportRow): boolean {
  return (
    a.usdPerHourMicros === b.usdPerHourMicros &&
    a.gpuModel === b.gpuModel &&
    a.gpuCount === b.gpuCount &&
    a.gpuMemoryBytes === b.gpuMemoryBytes &&
    a.currency === b.currency
  );
}

/** One row per key; two rows of the files for one key at different prices refuse the import. */
export function dedupeRows(rows: readonly ImportRow[]): ImportRow[] {
  const byKey = new Map<string, ImportRow>();
  for (const r of rows) {
    const k = priceKey(r);
    const had = byKey.get(k);
    if (!had) byKey.set(k, r);
    else if (!sameContent(had, r)) {
      throw new ImportFormatError(
        r.file,
        r.where,
        `${r.instanceType} ${r.region} ${r.pricingModel} is priced twice, differently ($${shortUsd(had.usdPerHourMicros)} at ${had.where}, $${shortUsd(r.usdPerHourMicros)} here)`,
      );
    }
  }
  return [...byKey.values()];
}

function toDto(r: ImportRow): ImportedRowDto {
  return {
    provider: r.provider,
    instanceType: r.instanceType,
    region: r.region,
    pricingModel: r.pricingModel,
    gpuModel: r.gpuModel,
    gpuCount: r.gpuCount,
    usdPerHour: formatMicros(r.usdPerHourMicros),
    effectiveFrom: r.effectiveFrom.toISOString(),
    note: r.note,
  };
}

/** Compares with the store and, unless dryRun, adds the new rows in one transaction. */
export async function applyImport(
  client: Db,
  parsed: ParsedImport,
  opts: { dryRun: boolean; provider: string },
): Promise<ImportResult> {
  const rows = dedupeRows(parsed.rows);
  const run = async (tx: Pick<Db, "priceEntry">) => {
    const existing = await tx.priceEntry.findMany({
      where: { provider: opts.provider },
      select: {
        provider: true,
        instanceType: true,
        region: true,
        pricingModel: true,
        effectiveFrom: true,
        usdPerHourMicros: true,
        gpuModel: true,
        gpuCount: true,
        gpuMemoryBytes: true,
        currency: true,
        origin: true,
      },
    });
    const have = new Map(existing.map((e) => [priceKey(e), e]));
    const add: ImportRow[] = [];
    const conflicts: ImportConflict[] = [];
    let unchanged = 0;
    for (const r of rows) {
      const e = have.get(priceKey(r));
      if (!e) add.push(r);
      else if (e.usdPerHourMicros === r.usdPerHourMicros) unchanged++;
      else {
        conflicts.push({
          provider: r.provider,
          instanceType: r.instanceType,
          region: r.region,
          pricingModel: r.pricingModel,
          effectiveFrom: r.effectiveFrom.toISOString(),
          storedUsdPerHour: formatMicros(e.usdPerHourMicros),
          importedUsdPerHour: formatMicros(r.usdPerHourMicros),
          storedOrigin: e.origin,
          where: r.where,
        });
      }
    }
    if (!opts.dryRun && add.length > 0) {
      await tx.priceEntry.createMany({
        data: add.map((r) => ({
          provider: r.provider,
          instanceType: r.instanceType,
          region: r.region,
          pricingModel: r.pricingModel,
          gpuModel: r.gpuModel,
          gpuCount: r.gpuCount,
          gpuMemoryBytes: r.gpuMemoryBytes,
          usdPerHourMicros: r.usdPerHourMicros,
          currency: r.currency,
          effectiveFrom: r.effectiveFrom,
          source: r.source,
          sourceDate: r.sourceDate,
          note: r.note,
          origin: "user",
          updatedBy: `import:${r.provider}:${r.file}`.slice(0, 200),
        })),
      });
    }
    return { add, conflicts, unchanged };
  };
  const { add, conflicts, unchanged } = opts.dryRun
    ? await run(client)
    : await client.$transaction((tx) => run(tx), { timeout: TRANSACTION_MS });
  return {
    dryRun: opts.dryRun,
    added: add.length,
    unchanged,
    conflicts,
    skippedNonGpu: parsed.skippedNonGpu,
    skipped: parsed.skipped,
    describes: parsed.describes,
    addedRows: add.slice(0, PREVIEW_ROWS).map(toDto),
  };
}
