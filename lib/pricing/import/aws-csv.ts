import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import {
  awsRow,
  awsSource,
  classifyAwsProduct,
  termModel,
  type AwsProduct,
  type AwsTerm,
} from "./aws-common.ts";
import {
  emptyParsed,
  ImportFormatError,
  csvError,
  MAX_CSV_RECORD_CHARS,
  skip,
  type ImportFile,
  type ParsedImport,
  type ParseOptions,
} from "./types.ts";

// The AmazonEC2 offer file as CSV (index.csv): five "key","value" metadata lines, a header row,
// then one row per price dimension with the product's attributes repeated. Streamed through
// csv-parse; each row is classified and priced on its own, so memory stays flat.

/** CSV column -> the JSON offer file's attribute name (what classifyAwsProduct reads). */
const ATTRIBUTE_COLUMNS: Record<string, string> = {
  "Instance Type": "instanceType",
  "Instance Family": "instanceFamily",
  "Operating System": "operatingSystem",
  Tenancy: "tenancy",
  "License Model": "licenseModel",
  "Pre Installed S/W": "preInstalledSw",
  CapacityStatus: "capacitystatus",
  MarketOption: "marketoption",
  GPU: "gpu",
  "Region Code": "regionCode",
};
const REQUIRED = [
  "SKU",
  "TermType",
  "EffectiveDate",
  "Unit",
  "PricePerUnit",
  "Currency",
  "Product Family",
  "Instance Type",
  "Operating System",
  "Tenancy",
  "Pre Installed S/W",
  "CapacityStatus",
  "GPU",
  "Region Code",
];
const META_KEYS = ["FormatVersion", "Disclaimer", "Publication Date", "Version", "OfferCode"];

type Record_ = { record: string[]; info: { lines: number } };

export async function parseAwsCsv(f: ImportFile, opts: ParseOptions = {}): Promise<ParsedImport> {
  const file = f.name;
  const parsed = emptyParsed();
  const meta: Record<string, string> = {};
  let header: Map<string, number> | null = null;
  let rows = 0;
  const parser = parse({
    relax_column_count: true,
    info: true,
    bom: true,
    skip_empty_lines: true,
    max_record_size: MAX_CSV_RECORD_CHARS,
  });
  const piping = pipeline(Readable.from(f.source), parser);
  piping.catch(() => undefined); // surfaced through the iterator, and awaited below

  try {
    for await (const item of parser as AsyncIterable<Record_>) {
      const { record, info } = item;
      const line = `line ${info.lines}`;
      if (header === null && Object.keys(meta).length < META_KEYS.length) {
        const key = META_KEYS[Object.keys(meta).length] ?? "";
        if (record[0] !== key || record.length < 2) {
          throw new ImportFormatError(
            file,
            line,
            `expected the metadata line "${key}",<value> (an AWS offer file starts with ${META_KEYS.join(", ")})`,
          );
        }
        meta[key] = record[1] ?? "";
        if (key === "OfferCode" && meta.OfferCode !== "AmazonEC2") {
          throw new ImportFormatError(
            file,
            line,
            `OfferCode ${meta.OfferCode}: only AmazonEC2 files hold instance prices`,
          );
        }
        continue;
      }
      if (header === null) {
        header = new Map(record.map((name, i) => [name, i]));
        const missing = REQUIRED.filter((c) => !header?.has(c));
        if (missing.length > 0) {
          throw new ImportFormatError(file, line, `header lacks column(s): ${missing.join(", ")}`);
        }
        continue;
      }
      rows++;
      const h = header;
      const cell = (name: string): string => record[h.get(name) ?? -1] ?? "";
      const attributes: Record<string, string> = {};
      for (const [column, attr] of Object.entries(ATTRIBUTE_COLUMNS)) {
        if (h.has(column)) attributes[attr] = cell(column);
      }
      const product: AwsProduct = {
        sku: cell("SKU"),
        productFamily: cell("Product Family"),
        attributes,
      };
      const kept = classifyAwsProduct(product);
      if ("skip" in kept) {
        if (!kept.gpu) parsed.skippedNonGpu++;
        skip(parsed.skipped, kept.skip);
        continue;
      }
      const termType = cell("TermType");
      if (termType !== "OnDemand" && termType !== "Reserved") {
        throw new ImportFormatError(
          file,
          `${line}, column TermType`,
          `unknown term type ${JSON.stringify(termType)}`,
        );
      }
      const currency = cell("Currency");
      const term: AwsTerm = {
        termType,
        unit: cell("Unit"),
        usd: currency === "USD" ? cell("PricePerUnit") : null,
        otherCurrency: currency === "USD" ? null : currency,
        effectiveDate: cell("EffectiveDate"),
        leaseContractLength: cell("LeaseContractLength"),
        offeringClass: cell("OfferingClass"),
        purchaseOption: cell("PurchaseOption"),
        offerTermCode: cell("OfferTermCode") || undefined,
      };
      const model = termModel(term);
      if (typeof model === "string") {
        skip(parsed.skipped, model);
        continue;
      }
      const src = awsSource(meta.Version ?? "?", meta["Publication Date"] ?? "?", opts.sourceUrl);
      const row = awsRow(file, `${line} (SKU ${product.sku})`, kept, term, model, src);
      if (typeof row === "string") skip(parsed.skipped, row);
      else parsed.rows.push(row);
    }
    await piping;
  } catch (e) {
    throw csvError(file, e);
  } finally {
    parser.destroy();
  }
  if (header === null) {
    throw new ImportFormatError(file, "", "no header row: not an AWS offer file in CSV");
  }
  parsed.describes.push(
    `${file}: AmazonEC2 offer file version ${meta.Version} (published ${meta["Publication Date"]}), ${rows} price rows, ${parsed.rows.length} GPU prices kept`,
  );
  return parsed;
}
