"use client";

import { monthLabel } from "@/lib/core/months.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { billingQueries } from "@/lib/queries/billing.ts";
import type { ReconciliationDto } from "@/lib/zod/schemas/billing.ts";
import { Stat } from "../stat.tsx";
import { signedMoney, useRepriceFlow } from "./use-reprice-flow.ts";

// Actuals (issue 26): finance re-prices the month from the imported bills, through the ledger's
// re-pricing (a preview with the old and new totals, then an apply that sends the previewed total,
// so a bill or ledger change in between is refused: preview again). Afterwards the page says how
// much of the month is on actuals; hours no bill mentions stay list estimates.

const ACTUALS_URL = "/api/billing/actuals";

function share(part: number, whole: number): string {
  return whole === 0 ? "0%" : `${((part / whole) * 100).toFixed(1)}%`;
}

export function ActualsPanel({ r }: { r: ReconciliationDto }) {
  const { preview, result, reopen, setReopen, previewMut, applyMut } = useRepriceFlow(ACTUALS_URL, [
    billingQueries.all(),
  ]);
  const label = monthLabel(r.month);
  const { hours, actualHours } = r.actuals;
  const busy = previewMut.isPending || applyMut.isPending;
  const error = previewMut.error ?? applyMut.error;
  const canApply = preview !== null && !busy && (!preview.closed || reopen);
  return (
    <section className="panel" aria-labelledby="actuals-title" data-testid="actuals-panel">
      <div className="panel-head">
        <h2 id="actuals-title">Actuals</h2>
        <span className="muted small">
          re-price {label} from the bill: each matched host-hour takes its billed effective cost,
          the list estimate kept beside it; hours no bill mentions stay estimates
        </span>
      </div>
      <p
        data-testid="actuals-status"
        data-actual-hours={actualHours}
        data-hours={hours}
        className={actualHours > 0 ? "banner ok" : "muted"}
      >
        {actualHours > 0 ? (
          <>
            <strong>{label} is on actuals</strong> {actualHours} of {hours} host-hours (
            {share(actualHours, hours)}) cost what the bill charged; {hours - actualHours} are list
            estimates.
          </>
        ) : (
          <>
            {label} is on list estimates: none of its {hours} host-hours is priced from the bill
            yet.
          </>
        )}
      </p>
      <div className="form-actions">
        <button
          type="button"
          disabled={busy}
          onClick={() => previewMut.mutate(r.month)}
          data-testid="actuals-preview"
        >
          {previewMut.isPending ? "Previewing…" : "Preview actuals"}
        </button>
      </div>
      {error ? (
        <p className="banner error" role="alert" data-testid="actuals-error">
          <strong>{applyMut.error ? "Not applied" : "No preview"}</strong> {error.message}
        </p>
      ) : null}
      {result ? (
        <p className="banner ok" role="status" data-testid="actuals-result">
          <strong>Applied actuals to {monthLabel(result.month)}</strong>
          {formatMoney(result.oldTotalMicros, result.currency)} →{" "}
          {formatMoney(result.newTotalMicros, result.currency)} ({result.hours.changed} host-hours
          changed; {result.hours.actualAfter} of {result.hours.total} on actuals
          {result.reopened ? "; the month was reopened" : ""})
        </p>
      ) : null}
      {preview ? (
        <div data-testid="actuals-summary">
          <div className="stats" aria-label="Actuals preview">
            <Stat
              testId="actuals-old-total"
              label="Ledger total now"
              value={formatMoney(preview.oldTotalMicros, preview.currency)}
              data={{ "data-micros": preview.oldTotalMicros }}
            />
            <Stat
              testId="actuals-new-total"
              label="With actuals"
              value={formatMoney(preview.newTotalMicros, preview.currency)}
              data={{ "data-micros": preview.newTotalMicros }}
            />
            <Stat
              testId="actuals-delta"
              label="Difference"
              value={signedMoney(preview.deltaMicros, preview.currency)}
              data={{ "data-micros": preview.deltaMicros }}
            />
          </div>
          <p className="muted small" data-testid="actuals-counts">
            {preview.hours.changed} of {preview.hours.total} host-hours change (
            {preview.rowsChanged} ledger rows); {preview.hours.actualAfter} will be on actuals,{" "}
            {preview.hours.total - preview.hours.actualAfter} stay list estimates.
          </p>
          {preview.closed ? (
            <label className="banner" data-testid="actuals-closed">
              <input
                type="checkbox"
                checked={reopen}
                onChange={(e) => setReopen(e.target.checked)}
                data-testid="actuals-reopen"
              />{" "}
              {label} is closed: applying actuals reopens it and changes its reported figures
            </label>
          ) : null}
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              disabled={!canApply}
              onClick={() => applyMut.mutate(preview)}
              data-testid="actuals-apply"
            >
              {applyMut.isPending ? "Applying…" : `Apply actuals to ${label}`}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
