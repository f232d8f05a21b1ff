import type { CompareResult, OfferDto } from "@/lib/compare/schema.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { TableWrap } from "../table-wrap.tsx";
import { pricingLabel, type Filters } from "./filters.ts";

const rate = (micros: string | null, digits = 2) =>
  micros === null ? "—" : formatMoney(micros, "USD", digits);

export function matchesOffer(o: OfferDto, f: Filters): boolean {
  return (
    (!f.provider || o.provider === f.provider) &&
    (!f.pricingModel || o.pricingModel === f.pricingModel)
  );
}

/** The id of a GPU model's offers table, for links from its chart. */
export const offersAnchor = (model: string) => `offers-${model.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/**
 * Per GPU model, every offer in force now, cheapest per GPU-hour first: one disclosure each, its
 * summary saying how many offers and the cheapest per GPU-hour, open when the model is filtered.
 */
export function OffersSection({ c, filters }: { c: CompareResult; filters: Filters }) {
  const models = c.models.filter((m) => !filters.model || m.model === filters.model);
  return (
    <section className="panel" aria-labelledby="offers-title" data-testid="offers">
      <div className="panel-head">
        <h2 id="offers-title">Offers per GPU model</h2>
        <span className="muted small">
          $/GPU-hour = instance price ÷ GPUs; $/TFLOPS-hour divides by dense BF16 tensor TFLOPS
          (FP16 where the GPU has no BF16), $/GB-hour by GPU memory, from the spec table below.
          Prices in another currency are converted to USD.
        </span>
      </div>
      {models.map((m) => {
        const offers = m.offers.filter((o) => matchesOffer(o, filters));
        const cheapest = offers[0];
        return (
          <details
            key={m.model}
            id={offersAnchor(m.model)}
            className="compare-model offers-details"
            data-testid="offer-model"
            data-model={m.model}
            open={filters.model === m.model}
          >
            <summary>
              <h3>{m.label}</h3>
              <span className="muted small">
                {" "}
                · {offers.length} offer{offers.length === 1 ? "" : "s"}
                {cheapest ? ` · from ${rate(cheapest.perGpuHourMicros)} per GPU-hour` : ""}
                {m.spec ? "" : " · not in the spec table"}
              </span>
            </summary>
            {m.providersWithout.length > 0 ? (
              <p className="muted small" data-testid="providers-without">
                No offer on {m.providersWithout.join(", ")}
              </p>
            ) : null}
            {offers.length === 0 ? (
              <p className="muted small">No offer matches the filters.</p>
            ) : (
              <TableWrap label={`${m.label} offers table`}>
                <table className="data">
                  <thead>
                    <tr>
                      <th className="num" scope="col">
                        $/GPU-hour
                      </th>
                      <th scope="col">Provider</th>
                      <th scope="col">Pricing</th>
                      <th scope="col">Instance type</th>
                      <th scope="col">Region</th>
                      <th className="num" scope="col">
                        GPUs
                      </th>
                      <th className="num" scope="col">
                        $/instance-hour
                      </th>
                      <th className="num" scope="col">
                        $/TFLOPS-hour
                      </th>
                      <th className="num" scope="col">
                        $/GB-hour
                      </th>
                      <th scope="col">Cost per unit of work</th>
                      <th scope="col">Source</th>
                    </tr>
                  </thead>
                  <tbody>
                    {offers.map((o) => (
                      <tr
                        key={`${o.provider}|${o.instanceType}|${o.region}|${o.pricingModel}`}
                        data-testid="offer-row"
                      >
                        <td
                          className="num strong"
                          data-testid="per-gpu-hour"
                          data-micros={o.perGpuHourMicros}
                        >
                          {rate(o.perGpuHourMicros, 4)}
                        </td>
                        <td>{o.provider}</td>
                        <td>{pricingLabel(o.pricingModel)}</td>
                        <td className="mono">{o.instanceType}</td>
                        <td>{o.region === "*" ? "any" : o.region}</td>
                        <td className="num">{o.gpuCount}</td>
                        <td className="num muted" data-testid="per-instance-hour">
                          {rate(o.usdPerHourMicros)}
                          {o.conversion ? <div className="small">{o.conversion}</div> : null}
                        </td>
                        <td className="num" data-testid="per-tflops-hour">
                          {rate(o.perTflopsHourMicros, 5)}
                          {o.tflopsPrecision === "FP16" ? (
                            <span className="muted small"> FP16</span>
                          ) : null}
                        </td>
                        <td className="num">{rate(o.perGbHourMicros, 5)}</td>
                        <td className="small" data-testid="work-costs">
                          {o.workCosts.length === 0
                            ? "—"
                            : o.workCosts.map((w) => (
                                <div key={`${w.workload}|${w.unit}`} title={`${w.value} ${w.unit}`}>
                                  {formatMoney(w.micros, "USD", 4)} {w.per.replace(/^\$ /, "")} ·{" "}
                                  {w.workload}
                                </div>
                              ))}
                        </td>
                        <td className="wrap small" title={o.note ?? undefined}>
                          {o.sourceDate} · {o.source.split(",")[0]}
                          {o.note ? <div className="muted">{o.note}</div> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </details>
        );
      })}
    </section>
  );
}
