"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { bannerFor } from "@/lib/fleet/health.ts";
import { alertQueries, type AlertFilters } from "@/lib/queries/alerts.ts";
import type { AlertList } from "@/lib/zod/schemas/alert.ts";
import { SourceBanner } from "../source-banner.tsx";
import { Stat } from "../stat.tsx";
import { LocalTime } from "../time-zone.tsx";
import { useSearchState } from "../use-search-state.ts";
import { Filters, STATE_LABELS } from "./alert-filters.tsx";
import { AlertTable } from "./alert-table.tsx";
import { filtersFromParams, paramsFromFilters } from "./filters.ts";

/** `settingsLink`: the signed-in role may open /settings (finance and admins). */
export function AlertsView({ settingsLink }: { settingsLink: boolean }) {
  const [params, setParams] = useSearchState();
  const filters = filtersFromParams(params);
  const expanded = params.get("alert");
  const q = useQuery(alertQueries.list(filters));
  const setFilters = (f: AlertFilters) => setParams(paramsFromFilters(f, params));
  const toggle = (id: string) => {
    const p = new URLSearchParams(params);
    if (expanded === id) p.delete("alert");
    else p.set("alert", id);
    setParams(p);
  };
  const banner = bannerFor({
    health: undefined,
    requestError: q.error?.message ?? null,
    dataUpdatedAt: q.dataUpdatedAt,
  });
  return (
    <>
      <div className="page-title">
        <h1>Alerts</h1>
        <p>
          Idle GPUs, budgets and health.{" "}
          {q.data?.lastEvaluatedAt ? (
            <>
              Rules last evaluated <LocalTime value={q.data.lastEvaluatedAt} />.
            </>
          ) : (
            "Rules are evaluated by the collector after every scrape."
          )}
        </p>
        <span className="spacer" />
        {settingsLink ? (
          <Link className="button-link" href="/settings">
            Rules &amp; channels
          </Link>
        ) : null}
      </div>
      <SourceBanner banner={banner} onRetry={() => void q.refetch()} />
      {q.data ? <Counts data={q.data} /> : null}
      <section className="panel" aria-labelledby="alerts-title">
        <div className="panel-head">
          <h2 id="alerts-title">{STATE_LABELS[filters.state]} alerts</h2>
          <span className="spacer" />
          <Filters filters={filters} data={q.data} onChange={setFilters} />
        </div>
        {!q.data ? (
          q.isPending ? (
            <p className="loading" role="status">
              Loading alerts…
            </p>
          ) : null
        ) : q.data.alerts.length === 0 ? (
          <p className="muted" data-testid="alerts-empty">
            No {filters.state === "all" ? "" : STATE_LABELS[filters.state].toLowerCase()} alerts
            match these filters.
          </p>
        ) : (
          <AlertTable alerts={q.data.alerts} expanded={expanded} onToggle={toggle} />
        )}
      </section>
    </>
  );
}

function Counts({ data }: { data: AlertList }) {
  const c = data.counts;
  return (
    <section className="stats" aria-label="Alert counts">
      <Stat testId="alerts-firing" label="Firing" value={c.firing} data={{ "data-n": c.firing }} />
      <Stat
        testId="alerts-acknowledged"
        label="Acknowledged"
        value={c.acknowledged}
        data={{ "data-n": c.acknowledged }}
      />
      <Stat
        testId="alerts-snoozed"
        label="Snoozed"
        value={c.snoozed}
        sub="open, notifications paused"
      />
      <Stat testId="alerts-resolved" label="Resolved" value={c.resolved} sub="all time" />
    </section>
  );
}
