"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { parseTableQuery, writeTableQuery } from "@/lib/fleet/table-state.ts";
import { bannerFor } from "@/lib/fleet/health.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { instanceQueries } from "@/lib/queries/instances.ts";
import { isRange, type Range } from "@/lib/zod/schemas/range.ts";
import type { TableQuery } from "@/lib/zod/schemas/instance-query.ts";
import { LazyChartAreaFleetUtilization } from "../charts/lazy-charts.tsx";
import { EmptyFleet } from "../empty-fleet.tsx";
import { RangePicker } from "../range-picker.tsx";
import { SourceBanner } from "../source-banner.tsx";
import { useSearchState } from "../use-search-state.ts";
import { FleetHeadline } from "./fleet-headline.tsx";
import { GROUP_BYS, type FleetSummary, type GroupBy } from "@/lib/zod/schemas/fleet.ts";
import { AttentionList } from "./attention-list.tsx";
import { FleetGroups } from "./fleet-groups.tsx";
import { GpuLegend } from "./gpu-grid.tsx";
import { InstanceTable } from "./instance-table.tsx";

function errorText(e: Error | null): string | null {
  return e ? e.message : null;
}

/**
 * `canPrice`: the signed-in role may add catalogue prices (unpriced marks link to the form).
 * `initialSummary`: the summary the server rendered the page with; refetched at once on mount.
 */
export function FleetView({
  canPrice = false,
  initialSummary,
}: {
  canPrice?: boolean;
  initialSummary?: FleetSummary | undefined;
}) {
  const [params, setParams] = useSearchState();
  const rangeParam = params.get("range");
  const range: Range = isRange(rangeParam) ? rangeParam : "1h";
  const groupParam = params.get("group");
  const groupBy: GroupBy = GROUP_BYS.find((b) => b === groupParam) ?? "team";
  const tableKey = writeTableQuery(parseTableQuery(params)).toString();
  // Parsed once per distinct URL so the memoized table does not re-sort on every render.
  const query = useMemo(() => parseTableQuery(new URLSearchParams(tableKey)), [tableKey]);

  const summary = useQuery({
    ...fleetQueries.summary(),
    ...(initialSummary ? { initialData: initialSummary, staleTime: 0 } : {}),
  });
  const series = useQuery(fleetQueries.series(range));
  const instances = useQuery(instanceQueries.list());

  const banner = bannerFor({
    health: summary.data?.health,
    requestError: errorText(summary.error) ?? errorText(instances.error),
    dataUpdatedAt: summary.dataUpdatedAt,
  });

  const setRange = (r: Range) => {
    const next = new URLSearchParams(params);
    if (r === "1h") next.delete("range");
    else next.set("range", r);
    setParams(next);
  };
  const setGroupBy = (b: GroupBy) => {
    const next = new URLSearchParams(params);
    if (b === "team") next.delete("group");
    else next.set("group", b);
    setParams(next);
  };
  const setQuery = (q: TableQuery) => setParams(writeTableQuery(q, params));

  if (summary.isPending) {
    return (
      <p className="loading" role="status">
        Loading the fleet…
      </p>
    );
  }

  if (!summary.data) {
    return <SourceBanner banner={banner} onRetry={() => void summary.refetch()} />;
  }

  const s = summary.data;
  // GPUs before their hosts: Prometheus can report a new fleet a moment before discovery has
  // stored its hosts, and that is not an empty fleet
  if (s.hosts.total === 0 && s.gpus.known === 0) {
    return (
      <>
        <SourceBanner banner={banner} />
        <EmptyFleet />
      </>
    );
  }

  return (
    <>
      <SourceBanner banner={banner} onRetry={() => void summary.refetch()} />
      <FleetHeadline s={s} />
      <AttentionList attention={s.attention} />

      <section className="panel" aria-labelledby="util-title">
        <div className="panel-head">
          <h2 id="util-title">Fleet utilization</h2>
          <span className="muted small">mean SM busy over reporting GPUs</span>
          <span className="spacer" />
          <RangePicker value={range} onChange={setRange} />
        </div>
        {series.data ? (
          <LazyChartAreaFleetUtilization series={series.data} />
        ) : series.isError ? (
          <div className="chart-empty">Could not load the series: {series.error.message}</div>
        ) : (
          <div className="chart-empty" role="status">
            Loading…
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="grid-title">
        <div className="panel-head">
          <h2 id="grid-title">GPUs</h2>
          <span className="muted small">by group; open one for a cell per GPU, by host</span>
          <span className="spacer" />
          <GpuLegend />
        </div>
        <FleetGroups groups={s.groups} by={groupBy} onBy={setGroupBy} />
      </section>

      <section className="panel" aria-labelledby="instances-title">
        <h2 id="instances-title" className="sr-only">
          Instances
        </h2>
        {instances.data ? (
          <InstanceTable
            rows={instances.data.rows}
            query={query}
            onChange={setQuery}
            canPrice={canPrice}
          />
        ) : instances.isError ? (
          <p>Could not load instances: {instances.error.message}</p>
        ) : (
          <p className="loading" role="status">
            Loading instances…
          </p>
        )}
      </section>
    </>
  );
}
