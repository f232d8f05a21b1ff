"use client";

import { PolicySavingsStat } from "../policies/policy-savings-stat.tsx";
import { useQuery } from "@tanstack/react-query";
import { monthLabel } from "@/lib/core/months.ts";
import { addPriceHref } from "@/lib/pricing/prefill.ts";
import { bannerFor } from "@/lib/fleet/health.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { formatHours } from "@/lib/format/number.ts";
import { costQueries } from "@/lib/queries/costs.ts";
import { BREAKDOWN_DIMENSIONS, type CostMonth } from "@/lib/zod/schemas/costs.ts";
import { monthSchema } from "@/lib/zod/schemas/month.ts";
import { LazyChartBarCostTrend } from "../charts/lazy-charts.tsx";
import { SourceBanner } from "../source-banner.tsx";
import { Stat } from "../stat.tsx";
import { LocalTime } from "../time-zone.tsx";
import { useSearchState } from "../use-search-state.ts";
import { BreakdownTable } from "./breakdown-table.tsx";
import { BudgetPanel } from "./budget-panel.tsx";
import { CostBasisNote } from "./cost-basis-note.tsx";
import { CostInstanceTable } from "./cost-instance-table.tsx";
import { HolderTable } from "./holder-table.tsx";
import { FocusExport } from "./focus-export.tsx";
import { MonthPicker } from "./month-picker.tsx";
import { TableWrap } from "../table-wrap.tsx";
import { PriceNotesPanel } from "./price-notes.tsx";

export function CostsView() {
  const [params, setParams] = useSearchState();
  const raw = params.get("month");
  const parsed = monthSchema.safeParse(raw);
  const requested = parsed.success ? parsed.data : null;
  const costs = useQuery(costQueries.month(requested));
  const m = costs.data;
  const month = m?.month ?? requested;

  const setMonth = (next: string) => {
    const p = new URLSearchParams(params);
    p.set("month", next);
    setParams(p, "push");
  };

  const banner = bannerFor({
    health: undefined,
    requestError: costs.error?.message ?? null,
    dataUpdatedAt: costs.dataUpdatedAt,
  });

  return (
    <>
      <div className="page-title">
        <h1>Costs</h1>
        <p data-testid="utc-note">
          {month ? monthLabel(month) : "This month"} · month boundaries are UTC (00:00 UTC on the
          1st)
          {m?.coverageNote ? (
            <>
              {" · "}
              <strong data-testid="coverage-note">{m.coverageNote}</strong>
            </>
          ) : null}
        </p>
        <span className="spacer" />
        {month ? <MonthPicker month={month} onChange={setMonth} /> : null}
        {month ? (
          <a
            className="button-link"
            href={costQueries.exportUrl(month)}
            download
            data-testid="csv-export"
          >
            Export CSV
          </a>
        ) : null}
        {month ? <FocusExport month={month} /> : null}
        <a className="button-link" href="/costs/reconcile" data-testid="reconcile-link">
          Reconciliation
        </a>
      </div>
      {raw !== null && !parsed.success ? (
        <div className="banner" role="status">
          <strong>Ignored month “{raw}”</strong> Use YYYY-MM, e.g. 2026-11. Showing the current
          month.
        </div>
      ) : null}
      <SourceBanner banner={banner} onRetry={() => void costs.refetch()} />
      {!m ? (
        costs.isPending ? (
          <p className="loading" role="status">
            Loading costs…
          </p>
        ) : null
      ) : (
        <CostsBody m={m} />
      )}
    </>
  );
}

function CostsBody({ m }: { m: CostMonth }) {
  const c = m.currency;
  const empty = m.instances.length === 0;
  return (
    <>
      <section className="stats" aria-label="Month totals">
        <Stat
          testId="cost-total"
          label={
            m.complete
              ? m.coverageNote
                ? "Month total (partial data)"
                : "Month total"
              : "Month to date"
          }
          value={formatMoney(m.displayTotalMicros, c)}
          sub={
            m.dataTo ? (
              <>
                ledger through <LocalTime value={m.dataTo} />
              </>
            ) : (
              "no usage recorded"
            )
          }
          data={{ "data-micros": m.totalMicros }}
        />
        <Stat
          testId="cost-idle"
          label="Idle spend"
          value={formatMoney(m.displayIdleMicros, c)}
          sub={
            BigInt(m.totalMicros) > 0n
              ? `${(Number((BigInt(m.idleMicros) * 1000n) / BigInt(m.totalMicros)) / 10).toFixed(1)}% of spend on GPUs under 5% SM`
              : "GPU share × idle time"
          }
          data={{ "data-micros": m.idleMicros }}
        />
        <Stat
          testId="cost-forecast"
          label="Forecast"
          value={m.forecast ? formatMoney(m.forecast.micros, c) : "—"}
          sub={<span data-testid="forecast-note">{m.forecastNote}</span>}
          data={m.forecast ? { "data-micros": m.forecast.micros } : undefined}
        />
        <PolicySavingsStat month={m.month} />
        <Stat
          testId="cost-unpriced"
          label="Unpriced"
          value={unpricedValue(m)}
          sub={
            m.unpriced.hosts > 0 ? (
              `${formatHours(m.unpriced.upSeconds)} with no price, not in any total`
            ) : unpricedNowHosts(m) > 0 ? (
              <a href="#unpriced-now">no price for them yet: add one</a>
            ) : (
              "every hour had a catalogue price"
            )
          }
        />
      </section>
      <CostBasisNote m={m} />

      {m.unpricedNow.length > 0 ? <UnpricedNow rows={m.unpricedNow} /> : null}

      {empty ? (
        <section className="panel empty">
          <h2>No usage in this month</h2>
          <p className="muted">
            The ledger closes one row per host per hour. Pick another month, or wait for the first
            full hour after hosts start reporting.
          </p>
        </section>
      ) : null}

      <div className="two-col">
        <BudgetPanel m={m} />
        <section className="panel" aria-labelledby="trend-title">
          <div className="panel-head">
            <h2 id="trend-title">Last 6 months</h2>
          </div>
          <LazyChartBarCostTrend trend={m.trend} currency={c} selected={m.month} />
        </section>
      </div>

      {!empty ? (
        <div className="breakdowns">
          {BREAKDOWN_DIMENSIONS.map((d) => (
            <BreakdownTable
              key={d}
              dimension={d}
              rows={m.breakdowns[d]}
              totalMicros={m.totalMicros}
              displayTotalMicros={m.displayTotalMicros}
              displayIdleMicros={m.displayIdleMicros}
              currency={c}
            />
          ))}
        </div>
      ) : null}

      {/* what priced the figures above: one line, the lists on demand */}
      {m.priceNotes ? <PriceNotesPanel notes={m.priceNotes} /> : null}

      <section className="panel" aria-labelledby="per-instance-title">
        <div className="panel-head">
          <h2 id="per-instance-title">Per instance</h2>
          <span className="muted small">
            one row per instance for {m.month}; the CSV export has exactly these rows, then a total
            row
          </span>
        </div>
        <CostInstanceTable
          rows={m.instances}
          currency={c}
          totalMicros={m.totalMicros}
          displayTotalMicros={m.displayTotalMicros}
          displayIdleMicros={m.displayIdleMicros}
        />
      </section>

      <section className="panel" aria-labelledby="by-holder-title" data-testid="by-holder">
        <div className="panel-head">
          <h2 id="by-holder-title">Who holds idle GPUs</h2>
          <span className="muted small">
            spend and idle spend by the person whose processes held the GPUs, split by memory when a
            GPU changed hands; the rows add up to the month&apos;s total
          </span>
        </div>
        <HolderTable month={m.month} />
      </section>
    </>
  );
}

function unpricedNowHosts(m: CostMonth): number {
  return m.unpricedNow.reduce((n, r) => n + r.hosts, 0);
}

/** Hosts without a price in this month's ledger, or, before their first hour, without one now. */
function unpricedValue(m: CostMonth): string {
  const hosts = (n: number) => `${n} host${n === 1 ? "" : "s"}`;
  if (m.unpriced.hosts > 0) return hosts(m.unpriced.hosts);
  const now = unpricedNowHosts(m);
  return now > 0 ? `${hosts(now)} now` : "none";
}

/** What to price so these hosts' hours count: one prefilled form link per instance type. */
function UnpricedNow({ rows }: { rows: CostMonth["unpricedNow"] }) {
  return (
    <section
      className="panel"
      id="unpriced-now"
      aria-labelledby="unpriced-now-title"
      data-testid="unpriced-now"
    >
      <div className="panel-head">
        <h2 id="unpriced-now-title">Hosts with no price</h2>
        <span className="muted small">
          their hours are left out of every total (never counted as free) until the catalogue has a
          price; add one, then re-price the month in the pricing catalogue for the hours already
          closed
        </span>
      </div>
      <TableWrap label="Hosts with no price table">
        <table className="data">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Instance type</th>
              <th>Region</th>
              <th>Pricing</th>
              <th className="num">Hosts</th>
              <th>Why</th>
              <th aria-label="Action" />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={`${r.provider}|${r.instanceType}|${r.region}|${r.pricingModel}`}
                data-testid="unpriced-now-row"
              >
                <td>{r.provider}</td>
                <td className="mono">{r.instanceType}</td>
                <td>{r.region}</td>
                <td>{r.pricingModel.replace(/_/g, "-")}</td>
                <td className="num">{r.hosts}</td>
                <td className="wrap small">{r.reason}</td>
                <td>
                  <a href={addPriceHref(r)} data-testid="add-price-link">
                    Add a price
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
