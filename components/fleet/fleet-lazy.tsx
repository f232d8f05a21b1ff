"use client";

import dynamic from "next/dynamic";

// The fleet page's parts that fetch with TanStack Query (and validate with zod), loaded after the
// page's first paint, client side only: the headline, groups and problem list come drawn in the
// server's HTML and need neither library to hydrate (issue 27: the first-load JS). Each part wraps
// itself in the shared query client (components/providers.tsx). Where a part had a loading state
// before, the placeholder here is that same state.

/** Keeps the summary fresh (every 15 s) and reports it to the page; draws nothing. */
export const LazySummaryLive = dynamic(
  () => import("./fleet-live.tsx").then((m) => m.SummaryLive),
  { ssr: false },
);

export const LazyFleetSeries = dynamic(
  () => import("./fleet-live.tsx").then((m) => m.FleetSeries),
  {
    ssr: false,
    loading: () => (
      <div className="chart-empty" role="status">
        Loading…
      </div>
    ),
  },
);

export const LazyFleetInstances = dynamic(
  () => import("./fleet-instances.tsx").then((m) => m.FleetInstances),
  {
    ssr: false,
    loading: () => (
      <p className="loading" role="status">
        Loading instances…
      </p>
    ),
  },
);

export const LazyGroupCells = dynamic(
  () => import("./group-cells.tsx").then((m) => m.GroupCellsIsland),
  {
    ssr: false,
    loading: () => (
      <p className="loading" role="status">
        Loading GPUs…
      </p>
    ),
  },
);

/** Fetches a later page of the problem list and reports it; draws nothing. */
export const LazyAttentionPage = dynamic(
  () => import("./fleet-live.tsx").then((m) => m.AttentionPage),
  { ssr: false },
);
