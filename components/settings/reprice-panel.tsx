"use client";

import { useState } from "react";
import { monthLabel, monthOf } from "@/lib/core/months.ts";
import { formatMoney } from "@/lib/format/money.ts";
import type { RepriceResultDto } from "@/lib/zod/schemas/reprice.ts";
import { signedMoney, useRepriceFlow } from "../costs/use-reprice-flow.ts";
import { Stat } from "../stat.tsx";

// Ledger hours keep the price they were written with; this panel re-prices a month with today's
// catalogue, always through a preview first. The apply sends the previewed new total, so the
// server refuses (409) if prices or usage changed in between: preview again.

const REPRICE_URL = "/api/pricing/reprice";
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function safeLabel(month: string): string {
  return MONTH.test(month) ? monthLabel(month) : month;
}

export function RepricePanel() {
  const [current] = useState(() => monthOf(new Date()));
  const [month, setMonth] = useState(current);
  const { preview, result, reopen, setReopen, previewMut, applyMut, clear } =
    useRepriceFlow(REPRICE_URL);

  const choose = (m: string) => {
    setMonth(m);
    clear();
  };

  const closed = preview ? preview.closed : MONTH.test(month) && month < current;
  const label = safeLabel(month);
  const error = previewMut.error ?? applyMut.error;
  const canApply =
    preview !== null &&
    preview.hours.changed > 0 &&
    (!preview.closed || reopen) &&
    !applyMut.isPending &&
    !previewMut.isPending;

  return (
    <section className="panel" aria-labelledby="reprice-title" data-testid="reprice-panel">
      <div className="panel-head">
        <h2 id="reprice-title">Re-price a month</h2>
        <span className="muted small">
          ledger hours keep the price they were written with; re-pricing applies today&apos;s
          catalogue to a whole UTC month, after a preview
        </span>
      </div>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (MONTH.test(month)) previewMut.mutate(month);
        }}
      >
        <label className="field">
          Month (UTC)
          <input
            type="month"
            value={month}
            min="2000-01"
            max={current}
            onChange={(e) => choose(e.target.value)}
            data-testid="reprice-month"
          />
        </label>
        <div className="form-actions">
          <button
            type="submit"
            disabled={!MONTH.test(month) || previewMut.isPending || applyMut.isPending}
            data-testid="reprice-preview"
          >
            {previewMut.isPending ? "Previewing…" : "Preview"}
          </button>
        </div>
      </form>

      {error ? (
        <p className="banner error" role="alert" data-testid="reprice-error">
          <strong>{applyMut.error ? "Not re-priced" : "No preview"}</strong> {error.message}
        </p>
      ) : null}

      {result ? (
        <p className="banner ok" role="status" data-testid="reprice-result">
          <strong>Re-priced {safeLabel(result.month)}</strong>
          {formatMoney(result.oldTotalMicros, result.currency)} →{" "}
          {formatMoney(result.newTotalMicros, result.currency)} ({result.hours.changed} hours,{" "}
          {result.rowsChanged} ledger rows changed
          {result.reopened ? "; the month was reopened" : ""})
        </p>
      ) : null}

      {preview ? <PreviewBody p={preview} /> : null}

      {preview && closed ? (
        <div className="banner" data-testid="reprice-closed">
          <strong>Closed month</strong>
          <span>
            {label} is closed: its figures may already have been billed or reported. Re-pricing it
            changes them.{" "}
            <label>
              <input
                type="checkbox"
                checked={reopen}
                onChange={(e) => setReopen(e.target.checked)}
                data-testid="reprice-reopen"
              />{" "}
              Reopen {label} (it was closed as billed)
            </label>
          </span>
        </div>
      ) : null}

      {preview && preview.hours.changed > 0 ? (
        <div className="form-actions">
          <button
            type="button"
            className="primary"
            disabled={!canApply}
            onClick={() => applyMut.mutate(preview)}
            data-testid="reprice-apply"
          >
            {applyMut.isPending ? "Re-pricing…" : `Re-price ${label}`}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function PreviewBody({ p }: { p: RepriceResultDto }) {
  const c = p.currency;
  return (
    <div data-testid="reprice-summary">
      <div className="stats" aria-label="Re-pricing preview">
        <Stat
          testId="reprice-old-total"
          label="Total as written"
          value={formatMoney(p.oldTotalMicros, c)}
          data={{ "data-micros": p.oldTotalMicros }}
        />
        <Stat
          testId="reprice-new-total"
          label="Total with today's prices"
          value={formatMoney(p.newTotalMicros, c)}
          data={{ "data-micros": p.newTotalMicros }}
        />
        <Stat
          testId="reprice-delta"
          label="Difference"
          value={signedMoney(p.deltaMicros, c)}
          data={{ "data-micros": p.deltaMicros }}
        />
      </div>
      <p className="muted small" data-testid="reprice-counts">
        {p.hours.changed} of {p.hours.total} host-hours change ({p.rowsChanged} ledger rows);{" "}
        {p.hours.newlyPriced} become priced, {p.hours.newlyUnpriced} become unpriced
        {p.hours.unpricedAfter > 0 ? `; ${p.hours.unpricedAfter} stay without a price` : ""}.
      </p>
      {p.hours.changed === 0 ? (
        <p className="muted">
          Nothing to re-price: every hour of {safeLabel(p.month)} already has today&apos;s price.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="reprice-hosts">
            <thead>
              <tr>
                <th>Host</th>
                <th>Instance type</th>
                <th>Pricing model</th>
                <th className="num">Hours changed</th>
                <th className="num">Before</th>
                <th className="num">After</th>
                <th className="num">Change</th>
              </tr>
            </thead>
            <tbody>
              {p.hosts.map((h) => (
                <tr key={`${h.hostId}|${h.instanceType}|${h.pricingModel}`}>
                  <td>{h.hostname}</td>
                  <td>{h.instanceType}</td>
                  <td>{h.pricingModel.replace(/_/g, "-")}</td>
                  <td className="num">{h.hoursChanged}</td>
                  <td className="num">{formatMoney(h.oldMicros, c)}</td>
                  <td className="num">{formatMoney(h.newMicros, c)}</td>
                  <td className="num">{signedMoney(h.deltaMicros, c)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {p.hostsChanged > p.hosts.length ? (
            <p className="muted small">
              The {p.hosts.length} largest changes of {p.hostsChanged} hosts.
            </p>
          ) : null}
        </div>
      )}
    </div>
  );
}
