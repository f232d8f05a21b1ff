import type { UnitCostRowDto } from "@/lib/work/schema.ts";
import { formatRatio } from "@/lib/format/number.ts";
import { TableWrap } from "../table-wrap.tsx";
import { perSecond, unitCostText, units } from "./work-format.ts";

// The instance page's measured work (issue 28): units per second and the cost per unit of work
// this month, beside the GPUs' mean utilization over the same hours.

export function InstanceWork({
  rows,
  utilMean,
  showCost,
  minimums,
}: {
  rows: readonly UnitCostRowDto[];
  utilMean: number | null;
  showCost: boolean;
  minimums: string;
}) {
  if (rows.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="work-title" data-testid="instance-work">
      <div className="panel-head">
        <h2 id="work-title">Work measured here</h2>
        <span className="muted small">
          this month, from the host&apos;s own counters; cost = the ledger&apos;s hours while they
          were reported, idle hours included; {minimums}
        </span>
      </div>
      <TableWrap label="Work measured on this instance">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Unit</th>
              <th className="num" scope="col">
                Throughput
              </th>
              <th className="num" scope="col">
                GPU utilization
              </th>
              <th className="num" scope="col">
                Hours
              </th>
              {showCost ? (
                <th className="num" scope="col">
                  Cost per unit
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const cost = unitCostText(r.status, r.perMicros);
              return (
                <tr
                  key={`${r.unit}|${r.modelName ?? ""}`}
                  data-testid="work-row"
                  data-unit={r.unit}
                >
                  <td>
                    {r.modelName ?? r.models.join(" + ")}
                    {r.mixed && !r.split ? (
                      <span className="muted small"> (mixed: cost is the host&apos;s)</span>
                    ) : null}
                  </td>
                  <td>{r.unit.replace("_", " ")}</td>
                  <td className="num" data-testid="work-rate">
                    {perSecond(r.perSecond, r.unit)}
                    <span className="muted small"> ({units(r.units)})</span>
                  </td>
                  <td className="num">{formatRatio(utilMean)}</td>
                  <td className="num">{r.hours}</td>
                  {showCost ? (
                    <td className="num" data-testid="work-cost" data-micros={r.perMicros ?? ""}>
                      <span className={cost.muted ? "muted" : undefined}>{cost.text}</span>{" "}
                      <span className="muted small">{r.per}</span>
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
