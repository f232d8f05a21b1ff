"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { formatHours } from "@/lib/format/number.ts";
import { costQueries } from "@/lib/queries/costs.ts";
import type { HolderSpendRow } from "@/lib/zod/schemas/holder-spend.ts";
import { TableWrap } from "../table-wrap.tsx";

// "Who holds idle GPUs" (issue 24): spend and idle spend by holder for the month, sortable, with
// its CSV. The rows (holders, then the time nobody held) add up to the month's total.

type SortKey = "holder" | "idleGpuHours" | "idleMicros" | "longestIdleSeconds" | "costMicros";
const COLUMNS: { key: SortKey; label: string; num: boolean }[] = [
  { key: "holder", label: "Holder", num: false },
  { key: "idleGpuHours", label: "Idle GPU-hours", num: true },
  { key: "idleMicros", label: "Idle cost", num: true },
  { key: "longestIdleSeconds", label: "Longest idle stretch", num: true },
  { key: "costMicros", label: "Spend", num: true },
];

function compare(a: HolderSpendRow, b: HolderSpendRow, key: SortKey): number {
  if (key === "holder") return a.holder.localeCompare(b.holder);
  if (key === "idleMicros" || key === "costMicros") {
    const x = BigInt(a[key]);
    const y = BigInt(b[key]);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a[key] - b[key];
}

export function HolderTable({ month }: { month: string }) {
  const q = useQuery(costQueries.holders(month));
  const [sort, setSort] = useState<{ key: SortKey; dir: "asc" | "desc" }>({
    key: "idleMicros",
    dir: "desc",
  });
  const data = q.data;
  if (q.error) return <p className="field-error">{q.error.message}</p>;
  if (!data) return <p className="loading">Loading holders…</p>;
  const held = data.rows.filter((r) => r.held);
  const sign = sort.dir === "asc" ? 1 : -1;
  // the "not held" row stays last, where the rows meet the total
  const rows = [
    ...held.sort((a, b) => sign * compare(a, b, sort.key) || a.holder.localeCompare(b.holder)),
    ...data.rows.filter((r) => !r.held),
  ];
  const money = (m: string) => formatMoney(m, data.currency);
  const toggle = (key: SortKey) =>
    setSort((s) => ({ key, dir: s.key === key && s.dir === "desc" ? "asc" : "desc" }));
  return (
    <>
      <p className="muted small">
        {data.pseudonymous ? "Holders are shown as pseudonyms. " : null}
        <a href={costQueries.holdersCsvUrl(month)} data-testid="holders-csv" download>
          Export CSV
        </a>
      </p>
      <TableWrap label="Spend by holder table">
        <table className="data" data-testid="holder-table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.num ? "num" : undefined}
                  aria-sort={
                    sort.key === c.key ? (sort.dir === "asc" ? "ascending" : "descending") : "none"
                  }
                >
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => toggle(c.key)}
                    data-testid={`holder-sort-${c.key}`}
                  >
                    {c.label}
                    <span aria-hidden="true">
                      {sort.key === c.key ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.holder} data-testid="holder-row" data-held={r.held ? "yes" : "no"}>
                <td>{r.held ? r.holder : <span className="muted">{r.holder}</span>}</td>
                <td className="num">{r.held ? r.idleGpuHours.toFixed(1) : "—"}</td>
                <td className="num" data-testid="holder-idle">
                  {money(r.displayIdleMicros)}
                </td>
                <td className="num">{r.held ? formatHours(r.longestIdleSeconds) : "—"}</td>
                <td
                  className="num"
                  data-testid="holder-cost"
                  data-micros={r.costMicros}
                  data-display-micros={r.displayCostMicros}
                >
                  {money(r.displayCostMicros)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="holder-total">
              <th scope="row">Total</th>
              <td />
              <td className="num">{money(data.displayIdleMicros)}</td>
              <td />
              <td
                className="num"
                data-testid="holder-total-cost"
                data-micros={data.totalMicros}
                data-display-micros={data.displayTotalMicros}
              >
                {money(data.displayTotalMicros)}
              </td>
            </tr>
          </tfoot>
        </table>
      </TableWrap>
    </>
  );
}
