import { parseMicros } from "@/lib/core/money.ts";
import { formatMoney } from "@/lib/format/money.ts";
import type { ReconciliationDto, ReconGroupDto, ReconRowDto } from "@/lib/zod/schemas/billing.ts";
import { TableWrap } from "../table-wrap.tsx";
import { ROUNDING_NOTE } from "./breakdown-table.tsx";

/** An ARN or an Azure resource id shows its last part (the instance or VM); the whole id is its title. */
export function shortId(id: string): string {
  const last = id.split(/[/:]/).filter(Boolean).pop();
  return last && last !== id ? `…${last}` : id;
}

// The reconciliation's tables. Money comes from the API already rounded to the cent so the rows of
// each table add up to its total row (signed largest remainder, lib/billing/round.ts).

type Money = Pick<ReconRowDto, "display" | "variancePct" | "varianceMicros">;

const dollars = (cents: string) => formatMoney(parseMicros(cents));

function pct(m: Money): string {
  return m.variancePct === null
    ? "—"
    : `${m.variancePct > 0 ? "+" : ""}${m.variancePct.toFixed(1)}%`;
}

function MoneyCells({ m }: { m: Money }) {
  return (
    <>
      <td className="num" data-col="estimate">
        {dollars(m.display.estimate)}
      </td>
      <td className="num" data-col="billed">
        {dollars(m.display.billed)}
      </td>
      <td className="num" data-col="effective" data-cents={m.display.effective}>
        {dollars(m.display.effective)}
      </td>
      <td className="num" data-col="variance" data-micros={m.varianceMicros}>
        {dollars(m.display.variance)}
      </td>
      <td className="num">{pct(m)}</td>
    </>
  );
}

function MoneyHeads() {
  return (
    <>
      <th className="num" scope="col">
        Ledger estimate
      </th>
      <th className="num" scope="col">
        Billed
      </th>
      <th className="num" scope="col">
        Effective
      </th>
      <th className="num" scope="col">
        Variance
      </th>
      <th className="num" scope="col">
        %
      </th>
    </>
  );
}

export function ReconRowsTable({
  id,
  title,
  note,
  rows,
  total,
}: {
  id: string;
  title: string;
  note?: string;
  rows: readonly ReconRowDto[];
  /** the total row, when the rows are the whole bill */
  total?: ReconciliationDto["total"];
}) {
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>{title}</h2>
        {note ? <span className="muted small">{note}</span> : null}
      </div>
      {rows.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <TableWrap label={`${title} table`}>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Team</th>
                <th scope="col">Provider</th>
                <th scope="col">Pricing</th>
                <MoneyHeads />
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} data-testid={`${id}-row`} data-name={r.name}>
                  <th scope="row">
                    {r.kind === "host" ? (
                      <a href={`/instances/${encodeURIComponent(r.name)}`}>{r.name}</a>
                    ) : (
                      <code className="small" title={r.name}>
                        {shortId(r.name)}
                      </code>
                    )}
                    <div className="muted small">
                      {r.instanceType} · {r.region} · {r.billedHours} h billed
                      {r.kind === "host" ? ` · ${r.ledgerHours} h seen` : ""}
                    </div>
                  </th>
                  <td>{r.team}</td>
                  <td>{r.provider}</td>
                  <td>{r.pricingModel}</td>
                  <MoneyCells m={r} />
                  <td className="small">
                    {r.kind === "unmonitored"
                      ? "on the bill, no exporter"
                      : (r.reason ?? "matches")}
                  </td>
                </tr>
              ))}
            </tbody>
            {total ? (
              <tfoot>
                <tr>
                  <th scope="row" colSpan={4}>
                    Total (the imported bills)
                  </th>
                  <MoneyCells m={total} />
                  <td />
                </tr>
              </tfoot>
            ) : null}
          </table>
        </TableWrap>
      )}
      {total ? <p className="muted small">{ROUNDING_NOTE}</p> : null}
    </section>
  );
}

export function ReconGroupTable({
  id,
  label,
  groups,
  total,
}: {
  id: string;
  label: string;
  groups: readonly ReconGroupDto[];
  total: ReconciliationDto["total"];
}) {
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>By {label.toLowerCase()}</h2>
      </div>
      <TableWrap label={`By ${label.toLowerCase()} table`}>
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <MoneyHeads />
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.key}>
                <th scope="row">{g.key}</th>
                <MoneyCells m={g} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <MoneyCells m={total} />
            </tr>
          </tfoot>
        </table>
      </TableWrap>
    </section>
  );
}

export function NotBilledTable({ hosts }: { hosts: ReconciliationDto["notBilled"] }) {
  return (
    <section className="panel" aria-labelledby="not-billed-title" data-testid="not-billed">
      <div className="panel-head">
        <h2 id="not-billed-title">Hosts with no billed rows</h2>
        <span className="muted small">
          In gpufleet with a ledger estimate, on no imported bill: a wrong instance id, another
          account, or on-prem. Not in the totals above.
        </span>
      </div>
      {hosts.length === 0 ? (
        <p className="muted">None: every host with an estimate is on a bill.</p>
      ) : (
        <TableWrap label="Hosts with no billed rows table">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Team</th>
                <th scope="col">Provider</th>
                <th scope="col">Instance id</th>
                <th className="num" scope="col">
                  Ledger estimate
                </th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {hosts.map((h) => (
                <tr key={h.hostId} data-testid="not-billed-row">
                  <th scope="row">
                    <a href={`/instances/${encodeURIComponent(h.hostname)}`}>{h.hostname}</a>
                  </th>
                  <td>{h.team}</td>
                  <td>
                    {h.provider} · {h.region}
                  </td>
                  <td>{h.instanceId ? <code className="small">{h.instanceId}</code> : "—"}</td>
                  <td className="num">{dollars(h.estimate)}</td>
                  <td className="small">{h.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
