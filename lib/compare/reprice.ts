// "This month re-priced": the fleet's actual GPU-hours per GPU model, priced at the cheapest offer
// of every (provider, pricing model) for that model, beside what the month actually cost. Exact in
// micro-dollars: GPU-seconds × instance price ÷ (GPUs × 3600), rounded once per model; displayed
// figures are rounded to the cent by largest remainder so each column's rows add up to its total.
import { mulDivRound, roundPartsToTotal, roundToUnit, sumMicros } from "../core/money.ts";
import type { Offer } from "./offers.ts";

export interface ModelUsage {
  /** spec key, or the ledger's model string where the spec table has none */
  model: string;
  gpuSeconds: number;
  /** GPU-seconds whose hours were priced; the rest cost an unknown amount */
  pricedGpuSeconds: number;
  actualMicros: bigint;
}

export interface Alternative {
  provider: string;
  pricingModel: string;
  offer: Offer;
  micros: bigint;
  displayMicros: bigint;
}

export interface RepricedModel {
  model: string;
  gpuSeconds: number;
  unpricedGpuSeconds: number;
  actualMicros: bigint;
  displayActualMicros: bigint;
  alternatives: Alternative[];
  /** providers with offers for other GPU models but none for this one */
  providersWithout: string[];
}

export interface ColumnTotal {
  provider: string;
  pricingModel: string;
  micros: bigint;
  displayMicros: bigint;
  /** what the covered models actually cost, to compare like with like */
  actualCoveredMicros: bigint;
  /** GPU models of the month this (provider, pricing model) has no offer for */
  missingModels: string[];
}

export interface RepriceResult {
  models: RepricedModel[];
  columns: ColumnTotal[];
  actualMicros: bigint;
  displayActualMicros: bigint;
}

export function repriceCost(gpuSeconds: number, offer: Offer): bigint {
  return mulDivRound(offer.usdPerHourMicros, BigInt(gpuSeconds), BigInt(offer.gpuCount) * 3600n);
}

const colKey = (provider: string, pricingModel: string) => `${provider}|${pricingModel}`;

export function repriceMonth(
  usage: readonly ModelUsage[],
  offers: ReadonlyMap<string, readonly Offer[]>,
): RepriceResult {
  const used = [...usage]
    .filter((u) => u.gpuSeconds > 0)
    .sort((a, b) => a.model.localeCompare(b.model));
  const providers = new Set<string>();
  const columnKeys = new Map<string, { provider: string; pricingModel: string }>();
  for (const list of offers.values())
    for (const o of list) {
      providers.add(o.provider);
      columnKeys.set(colKey(o.provider, o.pricingModel), {
        provider: o.provider,
        pricingModel: o.pricingModel,
      });
    }

  const models: RepricedModel[] = used.map((u) => {
    const cheapest = new Map<string, Offer>();
    // offers come cheapest first, so the first per column is its cheapest
    for (const o of offers.get(u.model) ?? []) {
      const k = colKey(o.provider, o.pricingModel);
      if (!cheapest.has(k)) cheapest.set(k, o);
    }
    const alternatives = [...cheapest.values()].map((o) => ({
      provider: o.provider,
      pricingModel: o.pricingModel,
      offer: o,
      micros: repriceCost(u.gpuSeconds, o),
      displayMicros: 0n,
    }));
    alternatives.sort((a, b) =>
      a.micros === b.micros
        ? a.provider.localeCompare(b.provider) || a.pricingModel.localeCompare(b.pricingModel)
        : a.micros < b.micros
          ? -1
          : 1,
    );
    const offered = new Set(alternatives.map((a) => a.provider));
    return {
      model: u.model,
      gpuSeconds: u.gpuSeconds,
      unpricedGpuSeconds: u.gpuSeconds - u.pricedGpuSeconds,
      actualMicros: u.actualMicros,
      displayActualMicros: 0n,
      alternatives,
      providersWithout: [...providers].filter((p) => !offered.has(p)).sort(),
    };
  });

  // the actual column: rows add up to the total
  const actualDisplay = roundPartsToTotal(models.map((m) => m.actualMicros));
  models.forEach((m, i) => (m.displayActualMicros = actualDisplay[i] ?? 0n));

  const columns: ColumnTotal[] = [...columnKeys.values()]
    .sort(
      (a, b) =>
        a.provider.localeCompare(b.provider) || a.pricingModel.localeCompare(b.pricingModel),
    )
    .map(({ provider, pricingModel }) => {
      const k = colKey(provider, pricingModel);
      const cells = models.flatMap((m) =>
        m.alternatives
          .filter((a) => colKey(a.provider, a.pricingModel) === k)
          .map((a) => ({ m, a })),
      );
      const display = roundPartsToTotal(cells.map((c) => c.a.micros));
      cells.forEach((c, i) => (c.a.displayMicros = display[i] ?? 0n));
      const micros = sumMicros(cells.map((c) => c.a.micros));
      const covered = new Set(cells.map((c) => c.m.model));
      return {
        provider,
        pricingModel,
        micros,
        displayMicros: roundToUnit(micros),
        actualCoveredMicros: sumMicros(cells.map((c) => c.m.actualMicros)),
        missingModels: models.filter((m) => !covered.has(m.model)).map((m) => m.model),
      };
    })
    .filter((c) => c.missingModels.length < models.length);

  const actualMicros = sumMicros(models.map((m) => m.actualMicros));
  return { models, columns, actualMicros, displayActualMicros: roundToUnit(actualMicros) };
}
