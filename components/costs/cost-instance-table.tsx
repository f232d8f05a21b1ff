import Link from "next/link";
import { hoursDecimal } from "@/lib/spend/csv.ts";
import { formatMoney } from "@/lib/format/money.ts";
import type { CostInstanceRow } from "@/lib/zod/schemas/costs.ts";
import { TableWrap } from "../table-wrap.tsx";
import { ROUNDING_NOTE } from "./breakdown-table.tsx";
import { instanceHref } from "@/lib/fleet/instance-href.ts";

/** The per-instance table; the CSV export is exactly these rows and columns. */
export function CostInstanceTable({
  rows,
  currency,
  totalMicros,
  displayTotalMicros,
  displayIdleMicros,
}: {
  rows: readonly CostInstanceRow[];
  currency: string;
  totalMicros: string;
  /** the month's totals rounded once: the displayed rows add up to them */
  displayTotalMicros: string;
  displayIdleMicros: string;
}) {
  if (rows.length === 0) {
    return <p className="muted">No instance has usage recorded in this month.</p>;
  }
  return (
    <>
      <TableWrap label="Per instance table">
        <table className="data" data-testid="cost-instance-table">
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Provider</th>
              <th scope="col">Type</th>
              <th scope="col">Region</th>
              <th scope="col">Pricing</th>
              <th scope="col">Team</th>
              <th scope="col">Project</th>
              <th className="num" scope="col">
                Up hours
              </th>
              <th className="num" scope="col">
                GPU hours
              </th>
              <th className="num" scope="col">
                Spend
              </th>
              <th className="num" scope="col">
                Idle
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.hostId}
                data-testid="cost-instance-row"
                data-host-id={r.hostId}
                data-micros={r.costMicros}
                data-idle-micros={r.idleMicros}
                data-display-micros={r.displayCostMicros}
                data-display-idle-micros={r.displayIdleMicros}
                data-priced={r.priced}
              >
                <td>
                  <Link href={instanceHref(r.hostname)}>{r.hostname}</Link>
                </td>
                <td>{r.provider}</td>
                <td className="mono">{r.instanceType}</td>
                <td>{r.region}</td>
                <td>{r.pricingModel}</td>
                <td>{r.team}</td>
                <td>{r.project}</td>
                <td className="num">{hoursDecimal(r.upSeconds)}</td>
                <td className="num">{hoursDecimal(r.gpuSeconds)}</td>
                <td className="num">
                  {r.priced === "no" ? (
                    <span className="unpriced">unpriced</span>
                  ) : (
                    <>
                      {formatMoney(r.displayCostMicros, currency)}
                      {r.priced === "partial" ? (
                        <span className="unpriced small"> (partly unpriced)</span>
                      ) : null}
                    </>
                  )}
                </td>
                <td className="num">
                  {r.priced === "no" ? (
                    <span className="unpriced">—</span>
                  ) : (
                    formatMoney(r.displayIdleMicros, currency)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td colSpan={9}>Total ({rows.length} instances)</td>
              <td
                className="num"
                data-testid="cost-instance-total"
                data-micros={totalMicros}
                data-display-micros={displayTotalMicros}
              >
                {formatMoney(displayTotalMicros, currency)}
              </td>
              <td
                className="num"
                data-testid="cost-instance-idle-total"
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
    </>
  );
}
