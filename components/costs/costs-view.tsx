"use client";

import { useQuery } from "@tanstack/react-query";
import { monthLabel } from "@/lib/costs/month.ts";
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
import { CostInstanceTable } from "./cost-instance-table.tsx";
import { MonthPicker } from "./month-picker.tsx";

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
          label={m.complete ? "Month total" : "Month to date"}
          value={formatMoney(m.totalMicros, c)}
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
          value={formatMoney(m.idleMicros, c)}
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
          sub={m.forecastNote}
        />
        <Stat
          testId="cost-unpriced"
          label="Unpriced"
          value={
            m.unpriced.hosts === 0
              ? "none"
              : `${m.unpriced.hosts} host${m.unpriced.hosts === 1 ? "" : "s"}`
          }
          sub={
            m.unpriced.hosts === 0
              ? "every hour had a catalogue price"
              : `${formatHours(m.unpriced.upSeconds)} with no price, not in any total`
          }
        />
      </section>

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
              currency={c}
            />
          ))}
        </div>
      ) : null}

      <section className="panel" aria-labelledby="per-instance-title">
        <div className="panel-head">
          <h2 id="per-instance-title">Per instance</h2>
          <span className="muted small">
            one row per instance for {m.month}; the CSV export has exactly these rows
          </span>
        </div>
        <CostInstanceTable rows={m.instances} currency={c} totalMicros={m.totalMicros} />
      </section>
    </>
  );
}
