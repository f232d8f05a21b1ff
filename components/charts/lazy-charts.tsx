"use client";

import dynamic from "next/dynamic";

// Recharts is about a third of a page's JS, so charts load after the page, client side only. The
// placeholder has the chart's height, so nothing below it moves when the chart arrives.

function ChartPlaceholder({ height }: { height: number }) {
  return <div className="chart chart-loading" style={{ height }} aria-hidden="true" />;
}

export const LazyChartAreaFleetUtilization = dynamic(
  () => import("./chart-area-fleet-utilization.tsx").then((m) => m.ChartAreaFleetUtilization),
  { ssr: false, loading: () => <ChartPlaceholder height={220} /> },
);

export const LazyChartBarCostTrend = dynamic(
  () => import("./chart-bar-cost-trend.tsx").then((m) => m.ChartBarCostTrend),
  { ssr: false, loading: () => <ChartPlaceholder height={220} /> },
);

export const LazyChartLineRecommendationEvidence = dynamic(
  () =>
    import("./chart-line-recommendation-evidence.tsx").then(
      (m) => m.ChartLineRecommendationEvidence,
    ),
  { ssr: false, loading: () => <ChartPlaceholder height={200} /> },
);

export const LazyChartLineGpuMetric = dynamic(
  () => import("./chart-line-gpu-metric.tsx").then((m) => m.ChartLineGpuMetric),
  // the chart's panel: caption plus a 200 px plot
  { ssr: false, loading: () => <div className="panel" style={{ margin: 0, height: 262 }} /> },
);

export const LazyChartScatterOffers = dynamic(
  () => import("./chart-scatter-offers.tsx").then((m) => m.ChartScatterOffers),
  // the page reserves the chart's height (offersChartHeight) around it, so nothing moves
  { ssr: false, loading: () => <ChartPlaceholder height={112} /> },
);
