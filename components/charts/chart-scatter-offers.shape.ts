// One GPU model's offers on a $/GPU-hour axis: a row per provider, a mark per pricing model, and
// the fleet's own effective $/GPU-hour that month (the ledger's cost ÷ its priced GPU-hours).
import { divRoundHalfUp } from "@/lib/core/money.ts";
import { formatMoney, microsToNumber } from "@/lib/format/money.ts";

export interface OfferInput {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  gpuCount: number;
  usdPerHourMicros: string;
  perGpuHourMicros: string;
}

/** What the ledger says about this GPU model in the month (the compare answer's reprice model). */
export interface ActualInput {
  gpuHours: number;
  unpricedGpuHours: number;
  actualMicros: string;
}

export interface OfferPoint {
  /** dollars per GPU-hour, for geometry only; exact amounts stay in the micros fields */
  x: number;
  /** the provider's row, nudged up or down by pricing model so marks at one price stay apart */
  y: number;
  provider: string;
  pricingModel: string;
  instanceType: string;
  region: string;
  gpuCount: number;
  perGpuHourMicros: string;
  usdPerHourMicros: string;
}

export interface OffersChart {
  /** providers top to bottom, cheapest offer first */
  providers: string[];
  /** pricing models in a fixed order, each a series with its own mark */
  series: { pricingModel: string; points: OfferPoint[] }[];
  /** the fleet's effective $/GPU-hour this month; null when it ran none of this GPU priced */
  actualPerGpuHourMicros: string | null;
  /** x axis upper bound in dollars: every mark and the actual line fit */
  xMax: number;
}

const ROW_PX = 30;
const AXIS_PX = 52;

/** The plot's height for this many provider rows (the page reserves it before the chart loads). */
export const offersChartHeight = (providers: number) => AXIS_PX + ROW_PX * Math.max(1, providers);

const MODEL_ORDER = ["on_demand", "reserved", "spot"];
const NUDGE: Record<string, number> = { on_demand: -0.22, reserved: 0, spot: 0.22 };

const rank = (m: string) => {
  const i = MODEL_ORDER.indexOf(m);
  return i < 0 ? MODEL_ORDER.length : i;
};

/**
 * The ledger's effective price per GPU-hour: the month's cost of the priced GPU-hours divided by
 * those hours, rounded half-up to the micro-dollar. Hours come as seconds ÷ 3600 in the answer, so
 * they are turned back into whole seconds first. Null without a priced GPU-second.
 */
export function effectivePerGpuHour(a: ActualInput | null | undefined): bigint | null {
  if (!a) return null;
  const pricedSeconds = Math.round((a.gpuHours - a.unpricedGpuHours) * 3600);
  if (pricedSeconds <= 0) return null;
  return divRoundHalfUp(BigInt(a.actualMicros) * 3600n, BigInt(pricedSeconds));
}

/** A bound a little past the largest value, on a round step, so the axis ends on a tick. */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const padded = v * 1.08;
  const step = 10 ** Math.floor(Math.log10(padded));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * step >= padded) return m * step;
  return 10 * step;
}

export function shapeOffersChart(
  offers: readonly OfferInput[],
  actual: ActualInput | null | undefined,
): OffersChart {
  // offers arrive cheapest first, so a provider's first appearance is its cheapest
  const providers = [...new Set(offers.map((o) => o.provider))];
  const row = new Map(providers.map((p, i) => [p, i]));
  const models = [...new Set(offers.map((o) => o.pricingModel))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const series = models.map((pricingModel) => ({
    pricingModel,
    points: offers
      .filter((o) => o.pricingModel === pricingModel)
      .map((o) => ({
        x: microsToNumber(o.perGpuHourMicros),
        y: (row.get(o.provider) ?? 0) + (NUDGE[pricingModel] ?? 0),
        provider: o.provider,
        pricingModel,
        instanceType: o.instanceType,
        region: o.region,
        gpuCount: o.gpuCount,
        perGpuHourMicros: o.perGpuHourMicros,
        usdPerHourMicros: o.usdPerHourMicros,
      })),
  }));
  const eff = effectivePerGpuHour(actual);
  const top = Math.max(0, ...offers.map((o) => microsToNumber(o.perGpuHourMicros)));
  return {
    providers,
    series,
    actualPerGpuHourMicros: eff === null ? null : eff.toString(),
    xMax: niceMax(Math.max(top, eff === null ? 0 : microsToNumber(eff))),
  };
}

const PRICING_NAMES: Record<string, string> = {
  on_demand: "on-demand",
  reserved: "reserved",
  spot: "spot",
};
export const pricingName = (m: string) => PRICING_NAMES[m] ?? m.replace(/_/g, "-");

const perGpu = (micros: string | bigint) => `${formatMoney(micros, "USD", 2)}/GPU-hour`;

/**
 * The chart said in words (its accessible name and the line under it): the cheapest offer of
 * each pricing model and what the fleet paid, e.g. "Cheapest on-demand: aws $3.93/GPU-hour;
 * cheapest spot: gcp $2.25/GPU-hour. In the month the fleet paid $4.10/GPU-hour."
 */
export function offersChartSummary(chart: OffersChart): string {
  const parts = chart.series.flatMap((s) => {
    const best = s.points[0];
    return best
      ? [
          `cheapest ${pricingName(s.pricingModel)}: ${best.provider} ${perGpu(best.perGpuHourMicros)}`,
        ]
      : [];
  });
  const lead = parts.length > 0 ? `${parts.join("; ")}.` : "No offer.";
  const actual =
    chart.actualPerGpuHourMicros === null
      ? "The fleet had no priced hours on this GPU in the month."
      : `In the month the fleet paid ${perGpu(chart.actualPerGpuHourMicros)}.`;
  return `${lead.charAt(0).toUpperCase()}${lead.slice(1)} ${actual}`;
}
