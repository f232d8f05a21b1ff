// Every catalogue offer in force now, per GPU: the row's price ÷ its GPUs, and that ÷ the GPU's
// dense TFLOPS and ÷ its memory, cheapest first. Money stays exact: a per-GPU figure is the row's
// micro-dollars × 1 ÷ gpuCount rounded once, and ranking compares the exact fractions.
import { divRoundHalfUp } from "../core/money.ts";
import { rowsInForce } from "../pricing/in-force.ts";
import type { PriceRow } from "../pricing/types.ts";
import { denseTflops, specKeyOf, specOf, type GpuSpec } from "./gpu-specs.ts";

export interface Offer {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  /** the row's GPU model as written, and the spec it maps to (null: not in the spec table) */
  gpuModel: string;
  specKey: string | null;
  gpuCount: number;
  usdPerHourMicros: bigint;
  /** per GPU-hour, rounded half-up to the micro-dollar */
  perGpuHourMicros: bigint;
  /** per dense TFLOPS-hour (BF16, else FP16); null where the spec has no tensor figure */
  perTflopsHourMicros: bigint | null;
  tflopsPrecision: "BF16" | "FP16" | null;
  /** per GB of GPU memory per hour */
  perGbHourMicros: bigint | null;
  currency: string;
  /** "converted from CNY" etc. for rows kept in another currency; null for USD rows */
  conversion: string | null;
  effectiveFrom: Date;
  source: string;
  sourceDate: string;
  note: string | null;
}

/** x micros ÷ a decimal figure (≤ 2 decimals), exactly, rounded once. */
function perUnit(micros: bigint, gpuCount: number, figure: number): bigint {
  const hundredths = BigInt(Math.round(figure * 100));
  return divRoundHalfUp(micros * 100n, BigInt(gpuCount) * hundredths);
}

export function toOffer(r: PriceRow): Offer {
  const spec: GpuSpec | null = specOf(r.gpuModel);
  const dense = spec ? denseTflops(spec) : null;
  const count = Math.max(1, r.gpuCount);
  return {
    provider: r.provider,
    instanceType: r.instanceType,
    region: r.region,
    pricingModel: r.pricingModel,
    gpuModel: r.gpuModel,
    specKey: specKeyOf(r.gpuModel),
    gpuCount: count,
    usdPerHourMicros: r.usdPerHourMicros,
    perGpuHourMicros: divRoundHalfUp(r.usdPerHourMicros, BigInt(count)),
    perTflopsHourMicros: dense ? perUnit(r.usdPerHourMicros, count, dense.tflops) : null,
    tflopsPrecision: dense?.precision ?? null,
    perGbHourMicros: spec ? perUnit(r.usdPerHourMicros, count, spec.memoryGB) : null,
    currency: r.currency,
    conversion: r.currency === "USD" ? null : `converted from ${r.currency}`,
    effectiveFrom: r.effectiveFrom,
    source: r.source,
    sourceDate: r.sourceDate,
    note: r.note,
  };
}

/** a/ca < b/cb on the exact per-GPU fraction; ties by provider, type, region, pricing model. */
export function compareOffers(a: Offer, b: Offer): number {
  const lhs = a.usdPerHourMicros * BigInt(b.gpuCount);
  const rhs = b.usdPerHourMicros * BigInt(a.gpuCount);
  if (lhs !== rhs) return lhs < rhs ? -1 : 1;
  return (
    a.provider.localeCompare(b.provider) ||
    a.instanceType.localeCompare(b.instanceType) ||
    a.region.localeCompare(b.region) ||
    a.pricingModel.localeCompare(b.pricingModel)
  );
}

/** The group an offer is compared in: its spec key, else the model string as written. */
export function modelKeyOf(o: Offer): string {
  return o.specKey ?? o.gpuModel;
}

/** Offers in force now, grouped by GPU model, each group cheapest per GPU-hour first. */
export function offersByModel(rows: readonly PriceRow[], now: Date): Map<string, Offer[]> {
  const groups = new Map<string, Offer[]>();
  for (const r of rowsInForce(rows, now)) {
    const o = toOffer(r);
    const k = modelKeyOf(o);
    const list = groups.get(k);
    if (list) list.push(o);
    else groups.set(k, [o]);
  }
  for (const list of groups.values()) list.sort(compareOffers);
  return groups;
}
