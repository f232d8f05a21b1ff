import type { PricingModel } from "../types.ts";
import { AZURE_GPU_SIZES } from "./gpu-specs.ts";
import { isObject, str, walkJson, type JsonValue } from "./json-stream.ts";
import { decimalToMicros } from "./price.ts";
import { requireSourceDate } from "./source-date.ts";
import {
  emptyParsed,
  ImportFormatError,
  skip,
  type ImportFile,
  type ImportRow,
  type ParsedImport,
  type ParseOptions,
} from "./types.ts";

// Azure Retail Prices API pages (https://prices.azure.com/api/retail/prices, saved as files):
// {"BillingCurrency", "Items": [...], "NextPageLink", "Count"}. Kept: GPU sizes (NC, ND, NV
// series in the GPU table), Linux (the product name has no "Windows"), pay-as-you-go
// ("Consumption"), priced per hour. A Spot or Low Priority meter is the spot price; where a size
// has both, Spot wins (Low Priority is the older Batch offer). Pages carry no date: the caller
// gives the download date, and an item's effectiveStartDate is its effective date.

const GIB = 1024n ** 3n;
const DEFAULT_URL = "https://prices.azure.com/api/retail/prices";

interface Candidate {
  row: ImportRow;
  lowPriority: boolean;
}

export async function parseAzureRetail(
  f: ImportFile,
  opts: ParseOptions = {},
): Promise<ParsedImport> {
  const file = f.name;
  const sourceDate = requireSourceDate(file, opts, "Azure Retail Prices API pages");
  const source = `Azure Retail Prices API, ${opts.sourceUrl ?? DEFAULT_URL} (page ${file}, downloaded ${sourceDate})`;
  const parsed = emptyParsed();
  const candidates = new Map<string, Candidate>();
  let items = 0;
  let sawItems = false;

  const onItem = (item: JsonValue, line: number): void => {
    items++;
    const at = `Items[${items - 1}] (line ${line})`;
    if (!isObject(item)) throw new ImportFormatError(file, at, "an item that is not an object");
    const armSkuName = str(item, "armSkuName") ?? "";
    if (!/^Standard_N[CDV]/i.test(armSkuName) || str(item, "serviceName") === "Storage") {
      parsed.skippedNonGpu++;
      skip(parsed.skipped, "not a GPU size (NC, ND, NV series)");
      return;
    }
    const spec = AZURE_GPU_SIZES[armSkuName.toLowerCase()];
    if (!spec) return skip(parsed.skipped, `GPU size not in the GPU table: ${armSkuName}`);
    const productName = str(item, "productName") ?? "";
    if (/windows/i.test(productName)) return skip(parsed.skipped, "Windows");
    const type = str(item, "type");
    if (type !== "Consumption") return skip(parsed.skipped, `type ${type ?? "missing"}`);
    const unit = str(item, "unitOfMeasure");
    if (unit !== "1 Hour") return skip(parsed.skipped, `unit ${unit ?? "missing"}`);
    const meter = str(item, "skuName") ?? str(item, "meterName") ?? "";
    const lowPriority = /low priority/i.test(meter);
    const model: PricingModel = /spot/i.test(meter) || lowPriority ? "spot" : "on_demand";
    const region = str(item, "armRegionName") ?? "";
    if (!/^[a-z0-9]+$/.test(region)) throw new ImportFormatError(file, at, "no armRegionName");
    const currency = str(item, "currencyCode");
    if (currency !== "USD") {
      throw new ImportFormatError(
        file,
        `${at}.currencyCode`,
        currency === "CNY"
          ? "CNY needs the exchange-rate support still to come; download the USD page"
          : `${currency ?? "missing"}: only USD prices can be imported for now`,
      );
    }
    const priceText = str(item, "retailPrice") ?? str(item, "unitPrice") ?? "";
    const price = decimalToMicros(priceText);
    if (!price) {
      throw new ImportFormatError(
        file,
        `${at}.retailPrice`,
        `not a price: ${JSON.stringify(priceText)}`,
      );
    }
    if (price.micros === 0n) return skip(parsed.skipped, "zero price");
    const start = str(item, "effectiveStartDate") ?? `${sourceDate.slice(0, 10)}`;
    const effectiveFrom = new Date(
      /^\d{4}-\d{2}(-\d{2})?$/.test(start)
        ? `${start.length === 7 ? `${start}-01` : start}T00:00:00Z`
        : start,
    );
    if (Number.isNaN(effectiveFrom.getTime())) {
      throw new ImportFormatError(
        file,
        `${at}.effectiveStartDate`,
        `not a date: ${JSON.stringify(start)}`,
      );
    }
    const notes = [
      lowPriority ? "Low Priority meter" : null,
      model === "spot" ? "spot prices move with supply" : null,
      price.rounded,
    ].filter((n): n is string => n !== null);
    const row: ImportRow = {
      provider: "azure",
      instanceType: armSkuName,
      region,
      pricingModel: model,
      gpuModel: spec.gpuModel,
      gpuCount: spec.gpuCount,
      gpuMemoryBytes: BigInt(spec.gpuMemoryGiB) * GIB,
      usdPerHourMicros: price.micros,
      currency: "USD",
      effectiveFrom,
      source: source.slice(0, 500),
      sourceDate,
      note: notes.length > 0 ? notes.join("; ") : null,
      where: `${file} ${at}`,
      file,
    };
    const key = `${armSkuName.toLowerCase()}|${region}|${model}|${effectiveFrom.toISOString()}`;
    const had = candidates.get(key);
    if (had && !had.lowPriority && lowPriority)
      return skip(parsed.skipped, "Low Priority beside Spot");
    if (had && had.lowPriority && !lowPriority) skip(parsed.skipped, "Low Priority beside Spot");
    else if (had) {
      // two meters for one key: apply.ts reports them as a duplicate naming both items
      parsed.rows.push(had.row);
    }
    candidates.set(key, { row, lowPriority });
  };

  await walkJson(file, f.source, {
    select(path) {
      if (path.length === 1 && path[0] === "Items") sawItems = true;
      return path.length === 2 && path[0] === "Items" && typeof path[1] === "number";
    },
    value(_path, v, line) {
      onItem(v, line);
    },
  });
  if (!sawItems) {
    throw new ImportFormatError(file, "Items", "missing: not an Azure Retail Prices API page");
  }
  for (const c of candidates.values()) parsed.rows.push(c.row);
  parsed.describes.push(
    `${file}: Azure Retail Prices page, ${items} items, ${candidates.size} GPU prices kept`,
  );
  return parsed;
}
