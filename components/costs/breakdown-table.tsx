import { formatMoney } from "@/lib/format/money.ts";
import { formatHours } from "@/lib/format/number.ts";
import type { BreakdownDimension, BreakdownRow } from "@/lib/zod/schemas/costs.ts";
import { TableWrap } from "../table-wrap.tsx";

export const DIMENSION_LABELS: Record<BreakdownDimension, string> = {
  provider: "Provider",
  team: "Team",
  project: "Project",
  instanceType: "Instance type",
  pricingModel: "Pricing model",
};

/** Share of the total in tenths of a percent, from exact micros (no float sums). */
function share(part: string, total: string): number {
  const t = BigInt(total);
  return t === 0n ? 0 : Number((BigInt(part) * 1000n) / t) / 10;
}

/** Said under every table whose money rows are rounded with roundPartsToTotal. */
export const ROUNDING_NOTE = "Rows are rounded so they add up to the total (largest remainder).";

export function BreakdownTable({
  dimension,
  rows,
  totalMicros,
  displayTotalMicros,
  displayIdleMicros,
  currency,
}: {
  dimension: BreakdownDimension;
  rows: readonly BreakdownRow[];
  totalMicros: string;
  /** the month's totals rounded once: the displayed rows add up to them */
  displayTotalMicros: string;
  displayIdleMicros: string;
  currency: string;
}) {
  const label = DIMENSION_LABELS[dimension];
  return (
    <section
      className="panel"
      aria-labelledby={`bd-${dimension}`}
      data-testid={`breakdown-${dimension}`}
    >
      <div className="panel-head">
        <h2 id={`bd-${dimension}`}>By {label.toLowerCase()}</h2>
      </div>
      <TableWrap label={`By ${label.toLowerCase()} table`}>
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <th className="num" scope="col">
                Spend
              </th>
              <th scope="col">Share</th>
              <th className="num" scope="col">
                Idle
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const pct = share(r.costMicros, totalMicros);
              const onlyUnpriced = r.costMicros === "0" && r.unpricedSeconds > 0;
              return (
                <tr
                  key={r.key}
                  data-testid="breakdown-row"
                  data-key={r.key}
                  data-micros={r.costMicros}
                  data-display-micros={r.displayCostMicros}
                  data-display-idle-micros={r.displayIdleMicros}
                >
                  <td>{r.key}</td>
                  <td className="num">
                    {onlyUnpriced ? (
                      <span className="unpriced">unpriced</span>
                    ) : (
                      formatMoney(r.displayCostMicros, currency)
                    )}
                    {!onlyUnpriced && r.unpricedSeconds > 0 ? (
                      <div
                        className="unpriced small"
                        title="hours with no catalogue price are not in the sum"
                      >
                        + {formatHours(r.unpricedSeconds)} unpriced
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <span className="bar-track" aria-hidden="true">
                      <span className="bar" style={{ width: `${Math.min(100, pct)}%` }} />
                    </span>
                    <span className="small">{pct.toFixed(1)}%</span>
                  </td>
                  <td className="num">{formatMoney(r.displayIdleMicros, currency)}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <td>Total</td>
              <td
                className="num"
                data-testid="breakdown-total"
                data-micros={totalMicros}
                data-display-micros={displayTotalMicros}
              >
                {formatMoney(displayTotalMicros, currency)}
              </td>
              <td />
              <td
                className="num"
                data-testid="breakdown-idle-total"
                data-display-micros={displayIdleMicros}
              >
                {formatMoney(displayIdleMicros, currency)}
              </td>
            </tr>
          </tfoot>
        </table>
      </TableWrap>
      <p className="muted small" data-testid="rounding-note">
        {ROUNDING_NOTE}
      </p>
    </section>
  );
}
