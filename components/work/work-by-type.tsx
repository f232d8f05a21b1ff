import type { UnitCostResult } from "@/lib/work/schema.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { TableWrap } from "../table-wrap.tsx";
import { perSecond, unitCostText, units } from "./work-format.ts";

// The costs page's cost per unit of work by model and instance type (issue 28), with the CSV of the
// same rows and the per-host / split-by-model choice.

export function WorkByType({
  result,
  csvHref,
  toggleHref,
}: {
  result: UnitCostResult;
  csvHref: string;
  toggleHref: string;
}) {
  const split = result.split === "share";
  return (
    <section className="panel" aria-labelledby="work-cost-title" data-testid="work-by-type">
      <div className="panel-head">
        <h2 id="work-cost-title">Cost per unit of work</h2>
        <span className="muted small">
          measured in {result.month}: the hosts&apos; own counters against the ledger&apos;s hours
          while they were reported (idle hours included); a figure needs{" "}
          {units(result.minimums.tokens)} tokens (or {units(result.minimums.otherUnits)} of another
          unit) and {result.minimums.hours} hour ·{" "}
          {split
            ? "hosts serving several models are split by each model's share of the work"
            : "a host serving several models keeps one per-host cost"}{" "}
          · <a href={toggleHref}>{split ? "per host" : "split by model"}</a> ·{" "}
          <a href={csvHref} download data-testid="work-csv">
            Export CSV
          </a>
        </span>
      </div>
      {result.byType.length === 0 ? (
        <p className="muted">No work counters reported this month.</p>
      ) : (
        <TableWrap label="Cost per unit of work table">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Instance type</th>
                <th scope="col">Unit</th>
                <th className="num" scope="col">
                  Hosts
                </th>
                <th className="num" scope="col">
                  Hours
                </th>
                <th className="num" scope="col">
                  Per host
                </th>
                <th className="num" scope="col">
                  Cost
                </th>
                <th className="num" scope="col">
                  Cost per unit
                </th>
              </tr>
            </thead>
            <tbody>
              {result.byType.map((t) => {
                const cost = unitCostText(t.status, t.perMicros);
                return (
                  <tr key={`${t.provider}|${t.instanceType}|${t.model}|${t.unit}`}>
                    <td>
                      {t.model || <span className="muted">(no model label)</span>}
                      {t.mixed ? <span className="muted small"> (mixed, per host)</span> : null}
                    </td>
                    <td>
                      {t.instanceType}
                      {t.gpus ? <span className="muted small"> {t.gpus}</span> : null}
                    </td>
                    <td>{t.unit.replace("_", " ")}</td>
                    <td className="num">{t.hosts}</td>
                    <td className="num">{t.hours}</td>
                    <td className="num">{perSecond(t.perSecondPerHost, t.unit)}</td>
                    <td className="num">{formatMoney(t.costMicros)}</td>
                    <td className="num" data-testid="work-type-cost">
                      <span className={cost.muted ? "muted" : undefined}>{cost.text}</span>{" "}
                      <span className="muted small">{t.per}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
