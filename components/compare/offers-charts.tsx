// The comparison page's lead: per GPU model, every offer in force on a $/GPU-hour axis, marked by
// provider and pricing model, with the fleet's own effective $/GPU-hour in the month beside them.
// Each chart is said in words under it; the offers table further down holds every figure.
import type { CompareResult } from "@/lib/compare/schema.ts";
import {
  offersChartHeight,
  offersChartSummary,
  pricingName,
  shapeOffersChart,
} from "../charts/chart-scatter-offers.shape.ts";
import { LazyChartScatterOffers } from "../charts/lazy-charts.tsx";
import { OFFER_MARKS, type OfferMark } from "../charts/offer-marks.ts";
import { matchesOffer, offersAnchor } from "./offers-table.tsx";
import type { Filters } from "./filters.ts";

/** The link to a model's table opens its disclosure before the browser scrolls to it. */
function openDetails(id: string) {
  const el = document.getElementById(id);
  if (el instanceof HTMLDetailsElement) el.open = true;
}

const hours = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function MarkIcon({ mark }: { mark: OfferMark }) {
  const common = { fill: mark.fill, stroke: mark.stroke, strokeWidth: 1 };
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
      {mark.shape === "circle" ? <circle cx="6" cy="6" r="4.5" {...common} /> : null}
      {mark.shape === "square" ? <rect x="1.5" y="1.5" width="9" height="9" {...common} /> : null}
      {mark.shape === "triangle" ? <path d="M6 1.5 L10.5 10.5 L1.5 10.5 Z" {...common} /> : null}
      {mark.shape === "diamond" ? <path d="M6 1 L11 6 L6 11 L1 6 Z" {...common} /> : null}
    </svg>
  );
}

export function OffersLegend({ pricingModels }: { pricingModels: readonly string[] }) {
  return (
    <ul className="offers-legend small" aria-label="Chart legend" data-testid="offers-legend">
      {pricingModels.map((m) => (
        <li key={m}>
          <MarkIcon mark={OFFER_MARKS[m] ?? OFFER_MARKS.other} /> {pricingName(m)}
        </li>
      ))}
      <li>
        <svg width="16" height="12" viewBox="0 0 16 12" aria-hidden="true">
          <line x1="0" y1="6" x2="16" y2="6" stroke="currentColor" strokeDasharray="4 3" />
        </svg>{" "}
        what the fleet paid per GPU-hour in the month (the ledger&apos;s cost ÷ its priced
        GPU-hours)
      </li>
    </ul>
  );
}

export function OffersCharts({ c, filters }: { c: CompareResult; filters: Filters }) {
  const models = c.models.filter((m) => !filters.model || m.model === filters.model);
  const used = new Map(c.reprice.models.map((m) => [m.model, m]));
  const shown = [...new Set(c.models.flatMap((m) => m.offers.map((o) => o.pricingModel)))]
    .filter((p) => !filters.pricingModel || p === filters.pricingModel)
    .sort();
  return (
    <section className="panel" aria-labelledby="offers-chart-title" data-testid="offers-charts">
      <div className="panel-head">
        <h2 id="offers-chart-title">Price per GPU-hour</h2>
        <span className="muted small">
          every offer in force now, per GPU model; instance prices divided by their GPUs, other
          currencies converted to USD
        </span>
      </div>
      <OffersLegend pricingModels={shown} />
      <div className="offers-chart-grid">
        {models.map((m) => {
          const offers = m.offers.filter((o) => matchesOffer(o, filters));
          const usage = used.get(m.model) ?? null;
          const chart = shapeOffersChart(offers, usage);
          const height = offersChartHeight(chart.providers.length);
          return (
            <figure
              key={m.model}
              className="offers-chart-card"
              data-testid="offers-chart-card"
              data-model={m.model}
            >
              <h3>
                {m.label}{" "}
                <span className="muted small">
                  · {offers.length} offer{offers.length === 1 ? "" : "s"}
                  {usage ? ` · fleet ran ${hours.format(usage.gpuHours)} GPU-hours` : ""}
                </span>
              </h3>
              {offers.length === 0 ? (
                <p className="muted small">No offer matches the filters.</p>
              ) : (
                <>
                  <div style={{ minHeight: height }}>
                    <LazyChartScatterOffers
                      label={m.label}
                      model={m.model}
                      offers={offers}
                      actual={usage}
                    />
                  </div>
                  <figcaption className="small" data-testid="offers-chart-summary">
                    {offersChartSummary(chart)}{" "}
                    <a
                      href={`#${offersAnchor(m.model)}`}
                      onClick={() => openDetails(offersAnchor(m.model))}
                    >
                      All {m.label} offers in a table
                    </a>
                  </figcaption>
                </>
              )}
            </figure>
          );
        })}
      </div>
    </section>
  );
}
