import type { PricingModel } from "../types.ts";
import { GCP_ATTACHED_GPUS, GCP_GPU_MACHINES, type GpuSpec } from "./gpu-specs.ts";
import { isObject, obj, str, walkJson, type JsonValue } from "./json-stream.ts";
import { formatNanos, moneyToNanos, nanosToMicros } from "./price.ts";
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

// Cloud Billing Catalog SKUs of Compute Engine (GET cloudbilling.googleapis.com/v1/services/
// 6F81-5844-456A/skus, saved as files: {"skus": [...], "nextPageToken"}). A2, G2 and A3 machine
// types are billed as vCPU-hours, GiB-hours and GPU-hours: a machine type's hourly price is
// composed from its shape (gpu-specs.ts) and the region's three SKU prices, exactly in
// nano-dollars, then rounded to micros. GPUs attached to N1 machines are rows of their own.
// Preemptible ("Spot Preemptible ...") SKUs give the spot prices; commitments are left out.

const GIB = 1024n ** 3n;
const DEFAULT_URL = "https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus";

interface Price {
  nanos: bigint;
  effective: Date;
  where: string;
}
/** component ("A2 Instance Core") + model -> region -> price */
type Components = Map<string, Map<string, Price>>;

const RELEVANT = new Set<string>([
  ...Object.values(GCP_GPU_MACHINES).flatMap((m) => [
    `${m.family} Instance Core`,
    `${m.family} Instance Ram`,
    m.gpuSku,
  ]),
  ...Object.keys(GCP_ATTACHED_GPUS),
]);

function modelOf(usageType: string | null): PricingModel | null {
  if (usageType === "OnDemand") return "on_demand";
  if (usageType === "Preemptible") return "spot";
  return null;
}

export async function parseGcpCatalog(
  f: ImportFile,
  opts: ParseOptions = {},
): Promise<ParsedImport> {
  const file = f.name;
  const sourceDate = requireSourceDate(file, opts, "Cloud Billing Catalog SKU pages");
  const source = `Google Cloud Billing Catalog API, Compute Engine SKUs, ${opts.sourceUrl ?? DEFAULT_URL} (page ${file}, downloaded ${sourceDate})`;
  const parsed = emptyParsed();
  const components: Components = new Map();
  let count = 0;
  let sawSkus = false;

  const onSku = (sku: JsonValue, line: number): void => {
    const at = `skus[${count}] (line ${line})`;
    count++;
    if (!isObject(sku)) throw new ImportFormatError(file, at, "a SKU that is not an object");
    const description = str(sku, "description") ?? "";
    const m = /^(?:(?:Spot )?Preemptible )?(.+) running in .+$/.exec(description);
    const component = m?.[1] ?? "";
    if (!RELEVANT.has(component)) {
      parsed.skippedNonGpu++;
      skip(parsed.skipped, "not a GPU machine type's core, RAM or GPU SKU");
      return;
    }
    const model = modelOf(str(obj(sku, "category") ?? undefined, "usageType"));
    if (!model) return skip(parsed.skipped, "commitment or other usage type");
    const info = (sku.pricingInfo as JsonValue[] | undefined)?.[0];
    const expr = obj(info, "pricingExpression");
    const tiers = expr?.tieredRates;
    if (!expr || !Array.isArray(tiers) || tiers.length === 0) {
      throw new ImportFormatError(
        file,
        `${at}.pricingInfo`,
        "missing pricingExpression.tieredRates",
      );
    }
    if (tiers.length > 1) return skip(parsed.skipped, "tiered price");
    const unitPrice = obj(tiers[0], "unitPrice");
    const currency = str(unitPrice ?? undefined, "currencyCode");
    if (currency !== "USD") {
      throw new ImportFormatError(
        file,
        `${at}.unitPrice.currencyCode`,
        currency === "CNY"
          ? "CNY needs the exchange-rate support still to come; download the catalog in USD"
          : `${currency ?? "missing"}: only USD prices can be imported for now (download the catalog with currencyCode=USD)`,
      );
    }
    const nanos = moneyToNanos(
      str(unitPrice ?? undefined, "units") ?? "",
      Number(str(unitPrice ?? undefined, "nanos") ?? "0"),
    );
    if (nanos === null)
      throw new ImportFormatError(file, `${at}.unitPrice`, "units/nanos are not a price");
    const unit = str(expr, "usageUnit");
    const wantUnit = component.endsWith("Instance Ram") ? "GiBy.h" : "h";
    if (unit !== wantUnit) {
      throw new ImportFormatError(
        file,
        `${at}.usageUnit`,
        `${unit ?? "missing"}, expected ${wantUnit}`,
      );
    }
    const time = str(info, "effectiveTime");
    const effective = new Date(time ?? `${sourceDate.slice(0, 10)}T00:00:00Z`);
    if (Number.isNaN(effective.getTime())) {
      throw new ImportFormatError(
        file,
        `${at}.effectiveTime`,
        `not a time: ${JSON.stringify(time)}`,
      );
    }
    const regions = (sku.serviceRegions as JsonValue[] | undefined) ?? [];
    const key = `${component}|${model}`;
    const byRegion = components.get(key) ?? new Map<string, Price>();
    components.set(key, byRegion);
    for (const region of regions) {
      if (typeof region !== "string") continue;
      const had = byRegion.get(region);
      if (had && had.nanos !== nanos) {
        throw new ImportFormatError(
          file,
          at,
          `${component} (${model}) in ${region} is also priced at ${had.where}, differently`,
        );
      }
      byRegion.set(region, { nanos, effective, where: at });
    }
  };

  await walkJson(file, f.source, {
    select(path) {
      if (path.length === 1 && path[0] === "skus") sawSkus = true;
      return path.length === 2 && path[0] === "skus";
    },
    value(_path, v, line) {
      onSku(v, line);
    },
  });
  if (!sawSkus)
    throw new ImportFormatError(file, "skus", "missing: not a Cloud Billing Catalog SKU list");

  const row = (
    instanceType: string,
    region: string,
    model: PricingModel,
    gpu: GpuSpec,
    gpuCount: number,
    parts: { what: string; qty: number; price: Price }[],
  ): ImportRow => {
    const total = parts.reduce((sum, p) => sum + BigInt(p.qty) * p.price.nanos, 0n);
    const micros = nanosToMicros(total);
    const effective = new Date(Math.max(...parts.map((p) => p.price.effective.getTime())));
    const composed =
      parts.length > 1
        ? `composed: ${parts.map((p) => `${p.qty} × ${formatNanos(p.price.nanos)} (${p.what})`).join(" + ")} USD/h`
        : `per GPU-hour (${parts[0]?.what ?? ""}); the N1 machine it is attached to is priced apart`;
    return {
      provider: "gcp",
      instanceType,
      region,
      pricingModel: model,
      gpuModel: gpu.gpuModel,
      gpuCount,
      gpuMemoryBytes: BigInt(gpu.gpuMemoryGiB) * GIB,
      usdPerHourMicros: micros.micros,
      currency: "USD",
      effectiveFrom: effective,
      source: source.slice(0, 500),
      sourceDate,
      note: [composed, micros.rounded].filter(Boolean).join("; ").slice(0, 500),
      where: `${file} ${parts.map((p) => p.price.where).join(", ")}`.slice(0, 300),
      file,
    };
  };

  for (const model of ["on_demand", "spot"] as const) {
    for (const [type, mt] of Object.entries(GCP_GPU_MACHINES)) {
      const names = [`${mt.family} Instance Core`, `${mt.family} Instance Ram`, mt.gpuSku];
      const maps = names.map((n) => components.get(`${n}|${model}`));
      const regions = new Set(maps.flatMap((m) => (m ? [...m.keys()] : [])));
      for (const region of [...regions].sort()) {
        const [core, ram, gpu] = maps.map((m) => m?.get(region));
        if (!core || !ram || !gpu) {
          const missing = names.filter((_n, i) => !maps[i]?.get(region));
          skip(parsed.skipped, `${type} (${model}): no ${missing.join(", ")} SKU for some regions`);
          continue;
        }
        parsed.rows.push(
          row(type, region, model, mt.gpu, mt.gpuCount, [
            { what: names[0] ?? "", qty: mt.vcpus, price: core },
            { what: names[1] ?? "", qty: mt.memoryGiB, price: ram },
            { what: names[2] ?? "", qty: mt.gpuCount, price: gpu },
          ]),
        );
      }
    }
    for (const [name, att] of Object.entries(GCP_ATTACHED_GPUS)) {
      for (const [region, price] of components.get(`${name}|${model}`) ?? []) {
        parsed.rows.push(
          row(att.accelerator, region, model, att.gpu, 1, [{ what: name, qty: 1, price }]),
        );
      }
    }
  }
  parsed.describes.push(
    `${file}: Cloud Billing Catalog page, ${count} SKUs, ${parsed.rows.length} GPU prices composed`,
  );
  return parsed;
}
