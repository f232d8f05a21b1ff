import { formatMoney } from "@/lib/format/money.ts";
import type { CostMonth } from "@/lib/zod/schemas/costs.ts";

function pct(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * 1000n) / whole) / 10;
}

/** Month-to-date against the fleet budget, with the forecast once 3 days of data exist. */
export function BudgetPanel({ m }: { m: CostMonth }) {
  const c = m.currency;
  const total = BigInt(m.totalMicros);
  const forecast = m.forecast ? BigInt(m.forecast.micros) : null;
  return (
    <section className="panel" aria-labelledby="budget-title" data-testid="budget-panel">
      <div className="panel-head">
        <h2 id="budget-title">{m.complete ? "Month total" : "Month to date"} vs budget</h2>
      </div>
      {m.budget ? (
        <BudgetMeter
          budget={BigInt(m.budget.amountMicros)}
          total={total}
          forecast={forecast}
          thresholds={m.budget.thresholds}
        />
      ) : (
        <p className="muted small">
          No fleet budget is set. Add a Budget with scope “fleet” to track spend against it.
        </p>
      )}
      <dl className="kv">
        <dt>{m.complete ? "Total" : "Spent so far"}</dt>
        <dd data-testid="budget-spent">{formatMoney(m.totalMicros, c)}</dd>
        {m.budget ? (
          <>
            <dt>Budget ({m.budget.name})</dt>
            <dd data-testid="budget-amount">
              {formatMoney(m.budget.amountMicros, c)} ·{" "}
              {pct(total, BigInt(m.budget.amountMicros)).toFixed(1)}% used
            </dd>
          </>
        ) : null}
        <dt>Forecast</dt>
        <dd data-testid="budget-forecast">
          {m.forecast ? (
            <>
              {formatMoney(m.forecast.micros, c)}
              {m.budget && forecast !== null
                ? ` · ${pct(forecast, BigInt(m.budget.amountMicros)).toFixed(0)}% of budget`
                : ""}
            </>
          ) : (
            <span className="muted">—</span>
          )}
          <div className="muted small">{m.forecastNote}</div>
        </dd>
      </dl>
    </section>
  );
}

function BudgetMeter({
  budget,
  total,
  forecast,
  thresholds,
}: {
  budget: bigint;
  total: bigint;
  forecast: bigint | null;
  thresholds: number[];
}) {
  // The scale reaches past the budget when spend or forecast exceed it.
  const max = [budget, total, forecast ?? 0n].reduce((a, b) => (b > a ? b : a));
  const width = (v: bigint) => `${Math.min(100, pct(v, max))}%`;
  return (
    <div
      className="budget-meter"
      role="meter"
      aria-label="Spend against budget"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct(total, budget))}
    >
      {forecast !== null ? <span className="forecast" style={{ width: width(forecast) }} /> : null}
      <span className="spent" style={{ width: width(total) }} />
      {thresholds.map((t) => (
        <span
          key={t}
          className="mark"
          title={`${t}% of budget`}
          style={{ left: width((budget * BigInt(Math.round(t))) / 100n) }}
        />
      ))}
    </div>
  );
}
