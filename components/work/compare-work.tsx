import type { CompareWorkRow } from "@/lib/work/compare-rows.ts";
import { TableWrap } from "../table-wrap.tsx";
import { unitCostText } from "./work-format.ts";

// /compare's cost per unit of work: measured here beside published, each row saying which.

export function CompareWork({ rows }: { rows: readonly CompareWorkRow[] }) {
  return (
    <section className="panel" aria-labelledby="compare-work-title" data-testid="compare-work">
      <div className="panel-head">
        <h2 id="compare-work-title">Cost per unit of work: measured and published</h2>
        <span className="muted small">
          measured: your hosts&apos; own counters against the ledger; published: a benchmark at
          today&apos;s cheapest on-demand price, not measured on your hosts
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="muted">No measured work and no published figures.</p>
      ) : (
        <TableWrap label="Cost per unit of work, measured and published">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Instance type</th>
                <th scope="col">Model or workload</th>
                <th className="num" scope="col">
                  Cost per unit
                </th>
                <th scope="col">Where from</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const cost =
                  r.kind === "published" && r.perMicros !== null
                    ? unitCostText("ok", r.perMicros)
                    : unitCostText(r.status, r.perMicros);
                return (
                  <tr
                    key={`${r.provider}|${r.instanceType}|${r.kind}|${r.workload}|${r.per}`}
                    data-testid="compare-work-row"
                    data-kind={r.kind}
                  >
                    <td>
                      {r.instanceType} <span className="muted small">{r.provider}</span>
                    </td>
                    <td>{r.workload}</td>
                    <td className="num" data-testid="compare-work-cost">
                      <span className={cost.muted ? "muted" : undefined}>{cost.text}</span>{" "}
                      <span className="muted small">{r.per}</span>
                    </td>
                    <td title={r.source || undefined}>{r.label}</td>
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
