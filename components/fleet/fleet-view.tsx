"use client";

import { useCallback, useState } from "react";
import { bannerFor } from "@/lib/fleet/health.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { GROUP_BYS, type GroupBy } from "@/lib/zod/schemas/fleet-values.ts";
import { isRange, type Range } from "@/lib/zod/schemas/range-values.ts";
import { EmptyFleet } from "../empty-fleet.tsx";
import { RangePicker } from "../range-picker.tsx";
import { SourceBanner } from "../source-banner.tsx";
import { useSearchState } from "../use-search-state.ts";
import { AttentionList } from "./attention-list.tsx";
import { FleetGroups } from "./fleet-groups.tsx";
import { FleetHeadline } from "./fleet-headline.tsx";
import type { LiveSummary } from "./fleet-live.tsx";
import { LazyFleetInstances, LazyFleetSeries, LazySummaryLive } from "./fleet-lazy.tsx";
import { GpuLegend } from "./gpu-legend.tsx";

/**
 * `canPrice`: the signed-in role may add catalogue prices (unpriced marks link to the form).
 * `initialSummary`: the summary the server rendered the page with; refetched at once on mount.
 *
 * What the first paint shows (headline, problem list, groups) is drawn from `initialSummary`
 * without TanStack Query or zod; the parts that fetch (the summary's polling, the chart, the
 * instance table, a group's GPUs) load after it (fleet-lazy.tsx, issue 27).
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

  const [live, setLive] = useState<LiveSummary | null>(null);
  const [instancesError, setInstancesError] = useState<string | null>(null);
  const onLive = useCallback((l: LiveSummary) => setLive(l), []);
  const onInstancesError = useCallback((e: string | null) => setInstancesError(e), []);
  const s = live?.data ?? initialSummary;

  const banner = bannerFor({
    health: s?.health,
    requestError: live?.error ?? instancesError,
    dataUpdatedAt: live?.dataUpdatedAt ?? 0,
  });
  const refetch = () => live?.refetch();

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

  const poll = <LazySummaryLive initial={initialSummary} onChange={onLive} />;

  if (!s) {
    return (
      <>
        {poll}
        {live?.error ? (
          <SourceBanner banner={banner} onRetry={refetch} />
        ) : (
          <p className="loading" role="status">
            Loading the fleet…
          </p>
        )}
      </>
    );
  }

  // GPUs before their hosts: Prometheus can report a new fleet a moment before discovery has
  // stored its hosts, and that is not an empty fleet
  if (s.hosts.total === 0 && s.gpus.known === 0) {
    return (
      <>
        {poll}
        <SourceBanner banner={banner} />
        <EmptyFleet />
      </>
    );
  }

  return (
    <>
      {poll}
      <SourceBanner banner={banner} onRetry={refetch} />
      <FleetHeadline s={s} />
      <AttentionList attention={s.attention} />

      <section className="panel" aria-labelledby="util-title">
        <div className="panel-head">
          <h2 id="util-title">Fleet utilization</h2>
          <span className="muted small">mean SM busy over reporting GPUs</span>
          <span className="spacer" />
          <RangePicker value={range} onChange={setRange} />
        </div>
        <LazyFleetSeries range={range} />
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
        <LazyFleetInstances canPrice={canPrice} onError={onInstancesError} />
      </section>
    </>
  );
}
