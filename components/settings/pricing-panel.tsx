"use client";

import { useQuery } from "@tanstack/react-query";
import { formatMoney } from "@/lib/format/money.ts";
import { pricingQueries, type PricingRowDto } from "@/lib/queries/admin.ts";
import { LocalTime } from "../time-zone.tsx";

const MODEL_ORDER = ["on_demand", "spot", "reserved"];

/** Provider, then instance type, region ("*" last), pricing model, newest price first. */
export function orderPricingRows(rows: readonly PricingRowDto[]): PricingRowDto[] {
  const modelRank = (m: string) => {
    const i = MODEL_ORDER.indexOf(m);
    return i < 0 ? MODEL_ORDER.length : i;
  };
  const regionKey = (r: string) => (r === "*" ? "\uffff" : r);
  return [...rows].sort(
    (a, b) =>
      a.provider.localeCompare(b.provider) ||
      a.instanceType.localeCompare(b.instanceType, undefined, { numeric: true }) ||
      regionKey(a.region).localeCompare(regionKey(b.region)) ||
      modelRank(a.pricingModel) - modelRank(b.pricingModel) ||
      b.effectiveFrom.localeCompare(a.effectiveFrom),
  );
}

/** "$32.7726/h"; a currency Intl does not know is written out instead of failing the table. */
export function hourlyPriceText(
  row: Pick<PricingRowDto, "usdPerHourMicros" | "usdPerHour" | "currency">,
): string {
  try {
    return `${formatMoney(row.usdPerHourMicros, row.currency || "USD", 4)}/h`;
  } catch {
    return `${row.usdPerHour} ${row.currency}/h`;
  }
}

export function pricingModelText(model: string): string {
  return model.replace(/_/g, "-");
}

/** The price list the cost ledger uses; read-only here, for finance to check. */
export function PricingPanel() {
  const q = useQuery(pricingQueries.catalogue());
  const rows = q.data ? orderPricingRows(q.data.rows) : [];
  return (
    <section className="panel" aria-labelledby="pricing-title" data-testid="pricing-panel">
      <div className="panel-head">
        <h2 id="pricing-title">Pricing catalogue</h2>
        <span className="muted small">
          hourly list prices the cost ledger uses; check the source and note of approximate rows
        </span>
      </div>
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      {q.isPending ? <p className="loading">Loading prices…</p> : null}
      {q.data ? (
        <div className="table-wrap">
          <table className="data" data-testid="pricing-table">
            <thead>
              <tr>
                <th>Provider</th>
                <th>Instance type</th>
                <th>Region</th>
                <th>Pricing</th>
                <th>GPUs</th>
                <th className="num">Price</th>
                <th>Effective from</th>
                <th>Source</th>
                <th>Note</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={`${r.provider}|${r.instanceType}|${r.region}|${r.pricingModel}|${r.effectiveFrom}`}
                  data-testid="pricing-row"
                  data-provider={r.provider}
                  data-type={r.instanceType}
                  data-note={r.note ? "yes" : "no"}
                >
                  <td>{r.provider}</td>
                  <td className="mono">{r.instanceType}</td>
                  <td>{r.region === "*" ? <span className="muted">any region</span> : r.region}</td>
                  <td>{pricingModelText(r.pricingModel)}</td>
                  <td>
                    {r.gpuCount} × {r.gpuModel}
                  </td>
                  <td className="num" data-micros={r.usdPerHourMicros}>
                    {hourlyPriceText(r)}
                  </td>
                  <td>
                    <LocalTime value={r.effectiveFrom} />
                  </td>
                  <td className="wrap">
                    {r.source}
                    {r.sourceDate ? <div className="muted small">as of {r.sourceDate}</div> : null}
                  </td>
                  <td className="wrap">{r.note ?? <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 ? <p className="muted">The catalogue is empty.</p> : null}
        </div>
      ) : null}
    </section>
  );
}
