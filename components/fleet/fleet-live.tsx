"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import type { FleetGpu, FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { ATTENTION_PREVIEW } from "@/lib/zod/schemas/fleet-values.ts";
import type { Range } from "@/lib/zod/schemas/range-values.ts";
import { LazyChartAreaFleetUtilization } from "../charts/lazy-charts.tsx";
import { Providers } from "../providers.tsx";

// The fleet page's queries (loaded after its first paint, fleet-lazy.tsx): the summary it polls,
// the utilization series and later pages of the problem list.

export interface LiveSummary {
  data: FleetSummary | undefined;
  /** the last request's error, while it stands */
  error: string | null;
  /** when the data was last fetched (ms), 0 if never */
  dataUpdatedAt: number;
  refetch: () => void;
}

function SummaryQuery({
  initial,
  onChange,
}: {
  initial: FleetSummary | undefined;
  onChange: (live: LiveSummary) => void;
}) {
  // the server's summary counts as data fetched now, and is refetched at once on mount
  const { data, error, dataUpdatedAt, refetch } = useQuery({
    ...fleetQueries.summary(),
    ...(initial ? { initialData: initial, staleTime: 0 } : {}),
  });
  const message = error ? error.message : null;
  useEffect(() => {
    onChange({ data, error: message, dataUpdatedAt, refetch: () => void refetch() });
  }, [data, message, dataUpdatedAt, refetch, onChange]);
  return null;
}

export function SummaryLive(props: {
  initial: FleetSummary | undefined;
  onChange: (live: LiveSummary) => void;
}) {
  return (
    <Providers>
      <SummaryQuery {...props} />
    </Providers>
  );
}

function SeriesQuery({ range }: { range: Range }) {
  const series = useQuery(fleetQueries.series(range));
  if (series.data) return <LazyChartAreaFleetUtilization series={series.data} />;
  if (series.isError)
    return <div className="chart-empty">Could not load the series: {series.error.message}</div>;
  return (
    <div className="chart-empty" role="status">
      Loading…
    </div>
  );
}

export function FleetSeries({ range }: { range: Range }) {
  return (
    <Providers>
      <SeriesQuery range={range} />
    </Providers>
  );
}

export interface AttentionPageState {
  gpus: readonly FleetGpu[];
  error: string | null;
}

function AttentionQuery({
  page,
  onChange,
}: {
  page: number;
  onChange: (state: AttentionPageState) => void;
}) {
  const q = useQuery(fleetQueries.gpus("attention", "all", page, ATTENTION_PREVIEW));
  const gpus = q.data?.gpus;
  const message = q.isError ? q.error.message : null;
  useEffect(() => onChange({ gpus: gpus ?? [], error: message }), [gpus, message, onChange]);
  return null;
}

/** Page `page` (> 1) of the problem list; the summary carries the first. */
export function AttentionPage(props: {
  page: number;
  onChange: (state: AttentionPageState) => void;
}) {
  return (
    <Providers>
      <AttentionQuery {...props} />
    </Providers>
  );
}
