import type { CompareResult } from "@/lib/compare/schema.ts";
import { divRoundHalfUp, roundToUnit } from "@/lib/core/money.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { TableWrap } from "../table-wrap.tsx";
import { pricingLabel, type Filters } from "./filters.ts";

const hours = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** Re-priced minus actual, rounded once to the cent; "+" when the alternative costs more. */
function delta(micros: string, actual: string): string {
  const d = roundToUnit(BigInt(micros) - BigInt(actual));
  return `${d > 0n ? "+" : ""}${formatMoney(d)}`;
}

/** The month's GPU-hours per GPU model priced at the cheapest offer of each provider and model. */
export function RepriceSection({ c, filters }: { c: CompareResult; filters: Filters }) {
  const r = c.reprice;
  const keep = (provider: string, pricingModel: string) =>
    (!filters.provider || provider === filters.provider) &&
    (!filters.pricingModel || pricingModel === filters.pricingModel);
  const models = r.models.filter((m) => !filters.model || m.model === filters.model);
  const columns = r.columns.filter((col) => keep(col.provider, col.pricingModel));
  return (
    <section className="panel" aria-labelledby="reprice-title" data-testid="reprice">
      <div className="panel-head">
        <h2 id="reprice-title">This month re-priced</h2>
        <span className="muted small">
          the month&apos;s GPU-hours{r.teamLimited ? " of your teams' hosts" : ""} priced at the
          cheapest offer of each provider and pricing model (cost = GPU-hours × instance price ÷
          GPUs); actual cost {formatMoney(r.displayActualMicros)}. Rows are rounded so each column
          adds up to its total (largest remainder).
        </span>
      </div>
      {models.length === 0 ? (
        <p className="muted" data-testid="reprice-empty">
          No GPU-hours in the ledger for {c.month}.
        </p>
      ) : null}
      {models.map((m) => {
        const alts = m.alternatives.filter((a) => keep(a.provider, a.pricingModel));
        const known = m.unpricedGpuHours === 0;
        return (
          <div
            key={m.model}
            className="compare-model"
            style={{ marginTop: 20 }}
            data-testid="reprice-model"
            data-model={m.model}
          >
            <h3>
              {m.label} · {hours.format(m.gpuHours)} GPU-hours · actual{" "}
              <span data-testid="reprice-actual">{formatMoney(m.displayActualMicros)}</span>
              {known ? null : (
                <span className="muted small">
                  {" "}
                  ({hours.format(m.unpricedGpuHours)} GPU-hours unpriced: their actual cost is
                  unknown)
                </span>
              )}
            </h3>
            {m.providersWithout.length > 0 ? (
              <p className="muted small">
                No offer for this GPU on {m.providersWithout.join(", ")}
              </p>
            ) : null}
            <TableWrap label={`${m.label} re-priced table`}>
              <table className="data">
                <thead>
                  <tr>
                    <th scope="col">Provider</th>
                    <th scope="col">Pricing</th>
                    <th className="num" scope="col">
                      $/GPU-hour
                    </th>
                    <th scope="col">Cheapest offer</th>
                    <th className="num" scope="col">
                      $/instance-hour
                    </th>
                    <th className="num" scope="col">
                      Re-priced
                    </th>
                    <th className="num" scope="col">
                      vs actual
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {alts.map((a) => (
                    <tr key={`${a.provider}|${a.pricingModel}`} data-testid="reprice-row">
                      <td>{a.provider}</td>
                      <td>{pricingLabel(a.pricingModel)}</td>
                      <td className="num" data-testid="reprice-per-gpu-hour">
                        {formatMoney(
                          divRoundHalfUp(BigInt(a.usdPerHourMicros), BigInt(a.gpuCount)),
                          "USD",
                          4,
                        )}
                      </td>
                      <td className="mono">
                        {a.instanceType} ({a.gpuCount} GPU{a.gpuCount === 1 ? "" : "s"},{" "}
                        {a.region === "*" ? "any region" : a.region})
                        {a.conversion ? <span className="muted small"> {a.conversion}</span> : null}
                      </td>
                      <td className="num muted">{formatMoney(a.usdPerHourMicros)}</td>
                      <td className="num" data-testid="reprice-cost" data-micros={a.micros}>
                        {formatMoney(a.displayMicros)}
                      </td>
                      <td className="num">{known ? delta(a.micros, m.actualMicros) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </div>
        );
      })}
      {models.length > 0 && !filters.model ? (
        <TableWrap label="Re-priced totals table">
          <table className="data" data-testid="reprice-totals">
            <caption className="muted small">Whole month, per provider and pricing model</caption>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Pricing</th>
                <th className="num" scope="col">
                  Re-priced total
                </th>
                <th className="num" scope="col">
                  Actual, same GPUs
                </th>
                <th scope="col">Not offered</th>
              </tr>
            </thead>
            <tbody>
              {columns.map((col) => (
                <tr key={`${col.provider}|${col.pricingModel}`}>
                  <td>{col.provider}</td>
                  <td>{pricingLabel(col.pricingModel)}</td>
                  <td className="num">{formatMoney(col.displayMicros)}</td>
                  <td className="num">
                    {formatMoney(roundToUnit(BigInt(col.actualCoveredMicros)))}
                  </td>
                  <td className="small">
                    {col.missingModels.length === 0 ? "—" : col.missingModels.join(", ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </section>
  );
}
