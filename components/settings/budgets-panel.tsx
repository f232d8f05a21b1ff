"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { settingsQueries } from "@/lib/queries/settings.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import type { BudgetDto } from "@/lib/zod/schemas/budget.ts";
import { BudgetForm } from "./budget-form.tsx";

export function BudgetsPanel() {
  const q = useQuery(settingsQueries.budgets());
  const client = useQueryClient();
  const [editing, setEditing] = useState<BudgetDto | "new" | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/budgets/${encodeURIComponent(id)}`, undefined, null),
    onSettled: () => client.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
  return (
    <section className="panel" aria-labelledby="budgets-title" data-testid="budgets-panel">
      <div className="panel-head">
        <h2 id="budgets-title">Budgets</h2>
        <span className="muted small">
          per UTC month; forecast = month-to-date ÷ elapsed × days in month, after 3 days of data
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => setEditing("new")} data-testid="budget-new">
          Add budget
        </button>
      </div>
      {editing === "new" ? <BudgetForm budget={null} onDone={() => setEditing(null)} /> : null}
      {q.error ? <p className="field-error">{q.error.message}</p> : null}
      {q.data ? (
        <div className="table-wrap">
          <table className="data" data-testid="budgets-table">
            <thead>
              <tr>
                <th>Budget</th>
                <th>Scope</th>
                <th className="num">Amount</th>
                <th className="num">Spent</th>
                <th className="num">Forecast</th>
                <th className="num">Idle spend</th>
                <th>Thresholds</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.budgets.map((b) =>
                editing !== "new" && editing?.id === b.id ? (
                  <tr key={b.id}>
                    <td colSpan={8} className="detail-cell">
                      <BudgetForm budget={b} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <BudgetRow
                    key={b.id}
                    b={b}
                    onEdit={() => setEditing(b)}
                    deleting={deleting === b.id}
                    onDelete={() => (deleting === b.id ? remove.mutate(b.id) : setDeleting(b.id))}
                  />
                ),
              )}
            </tbody>
          </table>
          {q.data.budgets.length === 0 ? <p className="muted">No budgets yet.</p> : null}
        </div>
      ) : null}
      {remove.error ? <p className="field-error">{remove.error.message}</p> : null}
    </section>
  );
}

function BudgetRow({
  b,
  onEdit,
  deleting,
  onDelete,
}: {
  b: BudgetDto;
  onEdit: () => void;
  deleting: boolean;
  onDelete: () => void;
}) {
  const s = b.status;
  const crossed = (t: number) =>
    s.crossedActual !== null && t <= s.crossedActual
      ? "critical"
      : s.crossedForecast !== null && t <= s.crossedForecast
        ? "warning"
        : "";
  return (
    <tr data-testid="budget-row" data-id={b.id} data-name={b.name}>
      <td>{b.name}</td>
      <td>{b.scopeKind === "fleet" ? "fleet" : `${b.scopeKind} ${b.scopeValue}`}</td>
      <td className="num">{formatMoney(b.amountMicros, b.currency)}</td>
      <td className="num" data-testid="budget-spent" data-micros={s.spendMicros}>
        {formatMoney(s.spendMicros, b.currency)}
        <div className="muted small">{s.pctActual.toFixed(1)} %</div>
      </td>
      <td className="num">
        {s.forecastMicros === null ? (
          <span className="muted" title={s.forecastNote}>
            —
          </span>
        ) : (
          <>
            {formatMoney(s.forecastMicros, b.currency)}
            <div className="muted small">{s.pctForecast?.toFixed(1)} %</div>
          </>
        )}
      </td>
      <td className="num">{formatMoney(s.idleMicros, b.currency)}</td>
      <td>
        <span className="actions">
          {b.thresholds.map((t) => (
            <span
              key={t}
              className={`badge ${crossed(t)}`}
              title="reached by actual (red) or forecast (amber)"
            >
              {t} %
            </span>
          ))}
        </span>
      </td>
      <td>
        <span className="actions">
          <button type="button" onClick={onEdit} data-testid="budget-edit">
            Edit
          </button>
          <button type="button" className="danger" onClick={onDelete} data-testid="budget-delete">
            {deleting ? "Confirm delete" : "Delete"}
          </button>
        </span>
      </td>
    </tr>
  );
}
