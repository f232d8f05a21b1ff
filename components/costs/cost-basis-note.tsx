import { formatMoney } from "@/lib/format/money.ts";
import type { CostMonth } from "@/lib/zod/schemas/costs.ts";

// Actual vs estimate (issue 26): how many of the month's host-hours cost what the imported bill
// charged (re-priced from it on the reconciliation page) and how many are list estimates. The
// month's total, breakdowns, budget and forecast use the actuals where they exist.

export function CostBasisNote({ m }: { m: CostMonth }) {
  const { hours, actualHours, actualMicros } = m.actuals;
  if (hours === 0) return null;
  const pct = ((actualHours / hours) * 100).toFixed(1);
  const reconcile = <a href={`/costs/reconcile?month=${m.month}`}>reconciliation</a>;
  return (
    <p
      className="muted small"
      data-testid="cost-basis"
      data-actual-hours={actualHours}
      data-hours={hours}
    >
      {actualHours > 0 ? (
        <>
          <strong>Actuals:</strong> {actualHours} of {hours} host-hours ({pct}%,{" "}
          {formatMoney(actualMicros, m.currency)}) cost what the bill charged; the other{" "}
          {hours - actualHours} are list estimates. The total, budget and forecast use the actuals (
          {reconcile}).
        </>
      ) : (
        <>
          <strong>Estimates:</strong> all {hours} host-hours are priced at list prices; apply the
          bill&apos;s actuals on the {reconcile} page.
        </>
      )}
    </p>
  );
}
