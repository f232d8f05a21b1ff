"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { bannerFor } from "@/lib/fleet/health.ts";
import { alertQueries, type AlertFilters } from "@/lib/queries/alerts.ts";
import type { AlertList } from "@/lib/zod/schemas/alert.ts";
import { SourceBanner } from "../source-banner.tsx";
import { Stat } from "../stat.tsx";
import { LocalTime } from "../time-zone.tsx";
import { useSearchState } from "../use-search-state.ts";
import { Filters, STATE_LABELS } from "./alert-filters.tsx";
import { AlertTable } from "./alert-table.tsx";
import type { Selection } from "./selection.ts";
import { BulkBar } from "./bulk-bar.tsx";
import { filtersFromParams, paramsFromFilters } from "./filters.ts";

/** `settingsLink`: the signed-in role may open /settings (finance and admins). */
export function AlertsView({ settingsLink }: { settingsLink: boolean }) {
  const [params, setParams] = useSearchState();
  const filters = filtersFromParams(params);
  const expanded = params.get("alert");
  const q = useQuery(alertQueries.list(filters));
  const setFilters = (f: AlertFilters) => setParams(paramsFromFilters(f, params));
  // selected alert ids; only those still listed are acted on
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const selection: Selection = useMemo(
    () => ({
      has: (id) => picked.has(id),
      set: (ids, on) => {
        const next = new Set(picked);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        setPicked(next);
      },
    }),
    [picked],
  );
  const selected = (q.data?.alerts ?? []).filter((a) => picked.has(a.id));
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
          <>
            <BulkBar selected={selected} onDone={() => setPicked(new Set())} />
            <AlertTable
              alerts={q.data.alerts}
              expanded={expanded}
              onToggle={toggle}
              selection={selection}
            />
          </>
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
