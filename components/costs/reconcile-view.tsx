"use client";

import { useQuery } from "@tanstack/react-query";
import { monthLabel } from "@/lib/core/months.ts";
import { parseMicros } from "@/lib/core/money.ts";
import { bannerFor } from "@/lib/fleet/health.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { billingQueries } from "@/lib/queries/billing.ts";
import type { ReconciliationDto } from "@/lib/zod/schemas/billing.ts";
import { monthSchema } from "@/lib/zod/schemas/month.ts";
import { SourceBanner } from "../source-banner.tsx";
import { Stat } from "../stat.tsx";
import { useSearchState } from "../use-search-state.ts";
import { ActualsPanel } from "./actuals-panel.tsx";
import { BillImportPanel } from "./bill-import-panel.tsx";
import { MonthPicker } from "./month-picker.tsx";
import { NotBilledTable, ReconGroupTable, ReconRowsTable } from "./reconcile-tables.tsx";

// Does the ledger's number match what was paid, and where not, why? (issue 26)

export function ReconcileView() {
  const [params, setParams] = useSearchState();
  const parsed = monthSchema.safeParse(params.get("month"));
  const recon = useQuery(billingQueries.reconcile(parsed.success ? parsed.data : null));
  const r = recon.data;
  const setMonth = (next: string) => {
    const p = new URLSearchParams(params);
    p.set("month", next);
    setParams(p, "push");
  };
  const banner = bannerFor({
    health: undefined,
    requestError: recon.error?.message ?? null,
    dataUpdatedAt: recon.dataUpdatedAt,
  });
  return (
    <>
      <div className="page-title">
        <h1>Reconciliation</h1>
        <p>
          {r ? monthLabel(r.month) : "Last month"} · the ledger&apos;s estimate beside the imported
          cloud bills · <a href={r ? `/costs?month=${r.month}` : "/costs"}>Costs</a>
        </p>
        <span className="spacer" />
        {r ? <MonthPicker month={r.month} onChange={setMonth} /> : null}
        {r ? (
          <a
            className="button-link"
            href={`/api/billing/reconcile.csv?month=${r.month}`}
            download
            data-testid="reconcile-csv"
          >
            Export CSV
          </a>
        ) : null}
      </div>
      <SourceBanner banner={banner} onRetry={() => void recon.refetch()} />
      {!r ? (
        recon.isPending ? (
          <p className="loading" role="status">
            Loading the reconciliation…
          </p>
        ) : null
      ) : (
        <ReconcileBody r={r} />
      )}
      <BillImportPanel />
    </>
  );
}

function ReconcileBody({ r }: { r: ReconciliationDto }) {
  const t = r.total;
  const money = (cents: string) => formatMoney(parseMicros(cents));
  if (r.imports.length === 0) {
    return (
      <section className="panel empty" data-testid="reconcile-empty">
        <p>
          No bill imported for {monthLabel(r.month)}. Import the providers&apos; cost exports below
          (or with <code>npm run billing:import</code>).
        </p>
      </section>
    );
  }
  return (
    <>
      <section className="stats" aria-label="Month totals">
        <Stat
          testId="recon-estimate"
          label="Ledger estimate"
          value={money(t.display.estimate)}
          sub="list prices, hours the exporters answered"
          data={{ "data-micros": t.estimateMicros }}
        />
        <Stat
          testId="recon-effective"
          label="Effective (bill)"
          value={money(t.display.effective)}
          sub={`billed ${money(t.display.billed)} before amortised commitments`}
          data={{ "data-micros": t.effectiveMicros }}
        />
        <Stat
          testId="recon-variance"
          label="Variance"
          value={money(t.display.variance)}
          sub={
            t.variancePct === null
              ? "no estimate"
              : `${t.variancePct > 0 ? "+" : ""}${t.variancePct.toFixed(1)}% of the estimate`
          }
          data={{ "data-micros": t.varianceMicros }}
        />
        <Stat
          testId="recon-unmonitored"
          label="GPUs nobody monitors"
          value={String(r.unmonitored.length)}
          sub={
            r.unmonitored.length > 0
              ? "on the bill, no exporter"
              : "every billed GPU instance has a host"
          }
        />
      </section>
      <p className="muted small" data-testid="recon-imports">
        Bills:{" "}
        {r.imports
          .map(
            (i) =>
              `${i.file} (${i.format}, ${i.provider}, ${i.rowsKept} of ${i.rowsRead} rows, by ${i.importedBy})`,
          )
          .join("; ")}
      </p>
      <ActualsPanel key={r.month} r={r} />
      <ReconRowsTable
        id="unmonitored"
        title="GPUs nobody monitors"
        note="GPU instances on the bill with no host in gpufleet: money spent that the dashboard cannot see."
        rows={r.unmonitored}
      />
      <ReconRowsTable id="largest-variances" title="Largest variances" rows={r.largest} />
      <ReconRowsTable
        id="recon-hosts"
        title="Per host"
        note="Every billed GPU instance: the hosts, then the instances nobody monitors."
        rows={[...r.hosts, ...r.unmonitored]}
        total={t}
      />
      <NotBilledTable hosts={r.notBilled} />
      <ReconGroupTable id="recon-team" label="Team" groups={r.byTeam} total={t} />
      <ReconGroupTable id="recon-provider" label="Provider" groups={r.byProvider} total={t} />
      <ReconGroupTable
        id="recon-pricing"
        label="Pricing model"
        groups={r.byPricingModel}
        total={t}
      />
    </>
  );
}
