// Assembles the comparison answer from plain inputs (catalogue rows, benchmark results, the
// month's usage per GPU model), so every figure can be checked by hand in a unit test.
import type { BenchmarkDto } from "../benchmarks/schema.ts";
import { unitCost } from "../benchmarks/unit-cost.ts";
import type { PriceRow } from "../pricing/types.ts";
import { GPU_SPECS, specOf, type GpuSpec } from "./gpu-specs.ts";
import { offersByModel, type Offer } from "./offers.ts";
import { repriceMonth, type ModelUsage } from "./reprice.ts";
import type { CompareResult, OfferDto } from "./schema.ts";

export interface CompareInput {
  month: string;
  now: Date;
  priceRows: readonly PriceRow[];
  benchmarks: readonly BenchmarkDto[];
  usage: readonly ModelUsage[];
  teamLimited: boolean;
}

const label = (model: string, spec: GpuSpec | null) => spec?.label ?? model;
const str = (v: bigint | null) => (v === null ? null : v.toString());
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function offerDto(o: Offer, benchmarks: readonly BenchmarkDto[]): OfferDto {
  const workCosts = benchmarks
    .filter((b) => same(b.provider, o.provider) && same(b.instanceType, o.instanceType))
    .flatMap((b) => {
      const c = unitCost(o.usdPerHourMicros, b.value, b.unit);
      return c
        ? [
            {
              workload: b.workload,
              unit: b.unit,
              value: b.value,
              per: c.per,
              micros: c.micros.toString(),
            },
          ]
        : [];
    });
  return {
    provider: o.provider,
    instanceType: o.instanceType,
    region: o.region,
    pricingModel: o.pricingModel,
    gpuModel: o.gpuModel,
    gpuCount: o.gpuCount,
    usdPerHourMicros: o.usdPerHourMicros.toString(),
    perGpuHourMicros: o.perGpuHourMicros.toString(),
    perTflopsHourMicros: str(o.perTflopsHourMicros),
    tflopsPrecision: o.tflopsPrecision,
    perGbHourMicros: str(o.perGbHourMicros),
    currency: o.currency,
    conversion: o.conversion,
    effectiveFrom: o.effectiveFrom.toISOString(),
    source: o.source,
    sourceDate: o.sourceDate,
    note: o.note,
    workCosts,
  };
}

export function buildCompare(input: CompareInput): CompareResult {
  const byModel = offersByModel(input.priceRows, input.now);
  const providers = [...new Set([...byModel.values()].flat().map((o) => o.provider))].sort();
  const pricingModels = [
    ...new Set([...byModel.values()].flat().map((o) => o.pricingModel)),
  ].sort();
  const models = [...byModel.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, offers]) => {
      const spec = specOf(model);
      const offered = new Set(offers.map((o) => o.provider));
      return {
        model,
        label: label(model, spec),
        spec,
        offers: offers.map((o) => offerDto(o, input.benchmarks)),
        providersWithout: providers.filter((p) => !offered.has(p)),
      };
    });

  const r = repriceMonth(input.usage, byModel);
  return {
    month: input.month,
    generatedAt: input.now.toISOString(),
    providers,
    pricingModels,
    specs: [...GPU_SPECS],
    models,
    benchmarks: [...input.benchmarks],
    reprice: {
      teamLimited: input.teamLimited,
      models: r.models.map((m) => ({
        model: m.model,
        label: label(m.model, specOf(m.model)),
        gpuHours: m.gpuSeconds / 3600,
        unpricedGpuHours: m.unpricedGpuSeconds / 3600,
        actualMicros: m.actualMicros.toString(),
        displayActualMicros: m.displayActualMicros.toString(),
        alternatives: m.alternatives.map((a) => ({
          provider: a.provider,
          pricingModel: a.pricingModel,
          instanceType: a.offer.instanceType,
          region: a.offer.region,
          gpuCount: a.offer.gpuCount,
          usdPerHourMicros: a.offer.usdPerHourMicros.toString(),
          conversion: a.offer.conversion,
          micros: a.micros.toString(),
          displayMicros: a.displayMicros.toString(),
        })),
        providersWithout: m.providersWithout,
      })),
      columns: r.columns.map((c) => ({
        provider: c.provider,
        pricingModel: c.pricingModel,
        micros: c.micros.toString(),
        displayMicros: c.displayMicros.toString(),
        actualCoveredMicros: c.actualCoveredMicros.toString(),
        missingModels: c.missingModels,
      })),
      actualMicros: r.actualMicros.toString(),
      displayActualMicros: r.displayActualMicros.toString(),
    },
  };
}
