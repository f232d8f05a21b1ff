import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import { parseMicros } from "../../core/money.ts";
import { httpUrlSchema } from "../../zod/schemas/common.ts";
import { priceInputSchema } from "../../zod/schemas/pricing.ts";
import {
  emptyParsed,
  ImportFormatError,
  csvError,
  MAX_CSV_RECORD_CHARS,
  type ImportFile,
  type ParsedImport,
} from "./types.ts";

// Alibaba Cloud and Tencent Cloud publish no machine-readable price list we can read offline, so
// their prices come in a documented CSV template, filled from their public price pages (see
// fixtures/README.md). Each row is validated exactly as the settings form validates a price.

export const TEMPLATE_COLUMNS = [
  "provider",
  "instance_type",
  "region",
  "pricing_model",
  "gpu_model",
  "gpu_count",
  "gpu_memory_gib",
  "price_per_hour",
  "currency",
  "effective_from",
  "source_url",
  "source_date",
] as const;
type Column = (typeof TEMPLATE_COLUMNS)[number];

const GIB = 1024 ** 3;
/** schema field -> template column, to name the column at fault */
const FIELD_COLUMN: Record<string, Column> = {
  provider: "provider",
  instanceType: "instance_type",
  region: "region",
  pricingModel: "pricing_model",
  gpuModel: "gpu_model",
  gpuCount: "gpu_count",
  gpuMemoryGiB: "gpu_memory_gib",
  usdPerHour: "price_per_hour",
  effectiveFrom: "effective_from",
  source: "source_url",
  sourceDate: "source_date",
};

const num = (v: string): number | undefined => (v.trim() === "" ? undefined : Number(v));

export async function parseCsvTemplate(
  provider: "alibaba" | "tencent",
  f: ImportFile,
): Promise<ParsedImport> {
  const file = f.name;
  const parsed = emptyParsed();
  let header: Column[] | null = null;
  const parser = parse({
    info: true,
    bom: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_CSV_RECORD_CHARS,
  });
  const piping = pipeline(Readable.from(f.source), parser);
  piping.catch(() => undefined); // surfaced through the iterator, and awaited below
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const line = `line ${info.lines}`;
      if (header === null) {
        const known = new Set<string>(TEMPLATE_COLUMNS);
        const unknown = record.filter((c) => !known.has(c));
        const missing = TEMPLATE_COLUMNS.filter((c) => !record.includes(c));
        if (unknown.length > 0 || missing.length > 0) {
          throw new ImportFormatError(
            file,
            line,
            [
              unknown.length > 0 ? `unknown column(s): ${unknown.join(", ")}` : "",
              missing.length > 0 ? `missing column(s): ${missing.join(", ")}` : "",
            ]
              .filter(Boolean)
              .join("; ") + ` (the template's columns: ${TEMPLATE_COLUMNS.join(",")})`,
          );
        }
        header = record as Column[];
        continue;
      }
      const cols = header;
      const cell = (c: Column): string => record[cols.indexOf(c)] ?? "";
      if (cell("provider") !== provider) {
        throw new ImportFormatError(
          file,
          `${line}, column provider`,
          `${JSON.stringify(cell("provider"))}: this import is for ${provider}`,
        );
      }
      const currency = cell("currency").toUpperCase();
      if (currency === "CNY") {
        throw new ImportFormatError(
          file,
          `${line}, column currency`,
          "CNY prices need the exchange-rate support still to come: enter the USD price from the international price page",
        );
      }
      if (currency !== "USD") {
        throw new ImportFormatError(
          file,
          `${line}, column currency`,
          `${JSON.stringify(cell("currency"))}: only USD for now`,
        );
      }
      const url = httpUrlSchema.safeParse(cell("source_url"));
      if (!url.success) {
        const why = url.error.issues[0]?.message ?? "not a URL";
        throw new ImportFormatError(file, `${line}, column source_url`, why);
      }
      const r = priceInputSchema.safeParse({
        provider,
        instanceType: cell("instance_type"),
        region: cell("region") || "*",
        pricingModel: cell("pricing_model"),
        gpuModel: cell("gpu_model"),
        gpuCount: num(cell("gpu_count")),
        gpuMemoryGiB: num(cell("gpu_memory_gib")),
        usdPerHour: cell("price_per_hour"),
        effectiveFrom: cell("effective_from"),
        source: cell("source_url"),
        sourceDate: cell("source_date"),
      });
      if (!r.success) {
        const issue = r.error.issues[0];
        const column = FIELD_COLUMN[String(issue?.path[0] ?? "")] ?? "?";
        throw new ImportFormatError(file, `${line}, column ${column}`, issue?.message ?? "invalid");
      }
      const p = r.data;
      parsed.rows.push({
        provider,
        instanceType: p.instanceType,
        region: p.region,
        pricingModel: p.pricingModel,
        gpuModel: p.gpuModel,
        gpuCount: p.gpuCount,
        gpuMemoryBytes: BigInt(Math.round(p.gpuMemoryGiB * GIB)),
        usdPerHourMicros: parseMicros(p.usdPerHour),
        currency: "USD",
        effectiveFrom: p.effectiveFrom,
        source: p.source,
        sourceDate: p.sourceDate,
        note: null,
        where: `${file} ${line}`,
        file,
      });
    }
    await piping;
  } catch (e) {
    throw csvError(file, e);
  } finally {
    parser.destroy();
  }
  if (header === null) throw new ImportFormatError(file, "line 1", "empty: no header row");
  parsed.describes.push(`${file}: ${provider} price template, ${parsed.rows.length} rows`);
  return parsed;
}
