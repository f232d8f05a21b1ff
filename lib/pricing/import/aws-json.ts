import {
  awsRow,
  awsSource,
  classifyAwsProduct,
  termModel,
  type AwsProduct,
  type AwsTerm,
  type KeptProduct,
} from "./aws-common.ts";
import { isObject, obj, str, walkJson, type JsonValue, type PathPart } from "./json-stream.ts";
import {
  emptyParsed,
  ImportFormatError,
  skip,
  type ImportFile,
  type ParsedImport,
  type ParseOptions,
} from "./types.ts";

// The AmazonEC2 offer file (JSON), one region's: https://pricing.us-east-1.amazonaws.com/offers/
// v1.0/aws/AmazonEC2/current/<region>/index.json. Hundreds of megabytes: streamed, each product
// assembled alone and dropped unless it is a GPU instance; products come before terms in the file,
// so by the time terms arrive only the kept SKUs' terms are assembled.

const META = new Set(["formatVersion", "offerCode", "version", "publicationDate"]);
const TERM_TYPES = new Set(["OnDemand", "Reserved"]);

function strings(o: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(o)) return out;
  for (const [k, v] of Object.entries(o)) if (typeof v === "string") out[k] = v;
  return out;
}

export async function parseAwsJson(f: ImportFile, opts: ParseOptions = {}): Promise<ParsedImport> {
  const parsed = emptyParsed();
  const meta: Record<string, string> = {};
  const kept = new Map<string, KeptProduct>();
  let products = 0;
  let termsSeen = false;
  const file = f.name;

  const onProduct = (path: PathPart[], v: JsonValue, line: number): void => {
    const at = `products.${String(path[1])} (line ${line})`;
    const attributes = obj(v, "attributes");
    if (!isObject(v) || attributes === null) {
      throw new ImportFormatError(file, at, "a product without attributes");
    }
    products++;
    const p: AwsProduct = {
      sku: str(v, "sku") ?? String(path[1]),
      productFamily: str(v, "productFamily") ?? "",
      attributes: strings(attributes),
    };
    const c = classifyAwsProduct(p);
    if ("skip" in c) {
      if (!c.gpu) parsed.skippedNonGpu++;
      skip(parsed.skipped, c.skip);
      return;
    }
    kept.set(p.sku, c);
  };

  const onTerms = (path: PathPart[], v: JsonValue, line: number): void => {
    const termType = path[1] === "OnDemand" ? "OnDemand" : "Reserved";
    const sku = String(path[2]);
    const product = kept.get(sku);
    if (!product || !isObject(v)) return;
    for (const [termKey, term] of Object.entries(v)) {
      const at = `terms.${termType}.${sku}.${termKey}`;
      const effectiveDate = str(term, "effectiveDate");
      const dims = obj(term, "priceDimensions");
      if (effectiveDate === null || dims === null) {
        throw new ImportFormatError(
          file,
          `${at} (line ${line})`,
          `missing ${effectiveDate === null ? "effectiveDate" : "priceDimensions"}`,
        );
      }
      const attrs = strings(obj(term, "termAttributes") ?? undefined);
      for (const [dimKey, dim] of Object.entries(dims)) {
        const where = `${at}.priceDimensions.${dimKey} (line ${line})`;
        const unit = str(dim, "unit");
        const prices = obj(dim, "pricePerUnit");
        if (unit === null || prices === null) {
          throw new ImportFormatError(
            file,
            where,
            `missing ${unit === null ? "unit" : "pricePerUnit"}`,
          );
        }
        const usd = prices.USD;
        const t: AwsTerm = {
          termType,
          unit,
          usd: typeof usd === "string" ? usd : null,
          otherCurrency: Object.keys(prices).find((c) => c !== "USD") ?? null,
          effectiveDate,
          leaseContractLength: attrs.LeaseContractLength,
          offeringClass: attrs.OfferingClass,
          purchaseOption: attrs.PurchaseOption,
          offerTermCode: str(term, "offerTermCode") ?? undefined,
        };
        const model = termModel(t);
        if (typeof model === "string") {
          skip(parsed.skipped, model);
          continue;
        }
        const src = awsSource(meta.version ?? "?", meta.publicationDate ?? "?", opts.sourceUrl);
        const row = awsRow(file, where, product, t, model, src);
        if (typeof row === "string") skip(parsed.skipped, row);
        else parsed.rows.push(row);
      }
    }
  };

  await walkJson(file, f.source, {
    select(path, line) {
      const top = path[0];
      if (path.length === 1 && typeof top === "string") {
        if (top === "terms") {
          if (products === 0) {
            throw new ImportFormatError(
              file,
              `line ${line}`,
              "terms come before products (or there are no products): not an AmazonEC2 offer file as AWS publishes it",
            );
          }
          termsSeen = true;
        }
        return META.has(top);
      }
      if (path.length === 2) return top === "products";
      return (
        path.length === 3 &&
        top === "terms" &&
        TERM_TYPES.has(String(path[1])) &&
        kept.has(String(path[2]))
      );
    },
    value(path, v, line) {
      if (path.length === 1) {
        if (typeof v !== "string") {
          throw new ImportFormatError(file, `${String(path[0])} (line ${line})`, "not a string");
        }
        meta[String(path[0])] = v;
      } else if (path.length === 2) onProduct(path, v, line);
      else onTerms(path, v, line);
    },
  });

  if (meta.offerCode !== "AmazonEC2") {
    throw new ImportFormatError(
      file,
      "offerCode",
      meta.offerCode === undefined
        ? "missing: not an AWS offer file"
        : `${meta.offerCode}: only AmazonEC2 offer files hold instance prices`,
    );
  }
  for (const key of ["version", "publicationDate"]) {
    if (meta[key] === undefined) throw new ImportFormatError(file, key, "missing");
  }
  if (!termsSeen) throw new ImportFormatError(file, "terms", "missing: the file has no prices");
  parsed.describes.push(
    `${file}: AmazonEC2 offer file version ${meta.version} (published ${meta.publicationDate}), ${products} products, ${kept.size} GPU products kept`,
  );
  return parsed;
}
