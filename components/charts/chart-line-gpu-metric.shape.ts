import type { GpuSeriesDto } from "@/lib/zod/schemas/series.ts";
import { withGaps } from "./gaps.ts";

export const GPU_METRICS = [
  "util",
  "memUsedBytes",
  "powerWatts",
  "tempCelsius",
  "smClockHz",
  "smActive",
] as const;
export type GpuMetric = (typeof GPU_METRICS)[number];

/**
 * The metrics worth a chart for these GPUs: SM active (DCGM profiling) only where some GPU has a
 * reading, the rest always.
 */
export function gpuMetricsFor(gpus: readonly GpuSeriesDto[]): GpuMetric[] {
  const sm = gpus.some((g) => (g.smActive ?? []).some((p) => p.v !== null));
  return GPU_METRICS.filter((m) => m !== "smActive" || sm);
}

export const METRIC_INFO: Record<
  GpuMetric,
  { label: string; unit: string; scale: (v: number) => number; max?: number }
> = {
  util: { label: "SM utilization", unit: "%", scale: (v) => v * 100, max: 100 },
  memUsedBytes: { label: "Memory used", unit: "GiB", scale: (v) => v / 1024 ** 3 },
  powerWatts: { label: "Power draw", unit: "W", scale: (v) => v },
  tempCelsius: { label: "Temperature", unit: "°C", scale: (v) => v },
  smClockHz: { label: "SM clock", unit: "MHz", scale: (v) => v / 1e6 },
  smActive: { label: "SM active", unit: "%", scale: (v) => v * 100, max: 100 },
};

// Okabe–Ito: eight colours distinguishable with every common colour-vision deficiency. Past eight
// GPUs the colours repeat with a dash pattern, so lines stay distinct without relying on colour.
const OKABE_ITO = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#000000",
  "#B8A200",
];

export interface MetricLine {
  key: string;
  label: string;
  color: string;
  dash: string | undefined;
}

export type MetricRow = { t: number } & Record<string, number | null>;

export interface GpuMetricChart {
  rows: MetricRow[];
  lines: MetricLine[];
  unit: string;
  label: string;
  max: number | undefined;
  hasData: boolean;
}

const round = (v: number) => Math.round(v * 10) / 10;

/** One row per timestamp with a column per GPU ("g0", "g1", …), in the metric's display unit. */
export function shapeGpuMetric(gpus: readonly GpuSeriesDto[], metric: GpuMetric): GpuMetricChart {
  const info = METRIC_INFO[metric];
  const sorted = [...gpus].sort((a, b) => a.index - b.index);
  const byT = new Map<number, MetricRow>();
  let hasData = false;
  const lines = sorted.map((g, i) => {
    const key = `g${g.index}`;
    for (const p of g[metric] ?? []) {
      const row = byT.get(p.t) ?? ({ t: p.t } as MetricRow);
      const v = p.v === null ? null : round(info.scale(p.v));
      if (v !== null) hasData = true;
      row[key] = v;
      byT.set(p.t, row);
    }
    return {
      key,
      label: `GPU ${g.index}`,
      color: OKABE_ITO[i % OKABE_ITO.length] ?? "#000000",
      dash: i < OKABE_ITO.length ? undefined : "6 3",
    };
  });
  const rows = withGaps(
    [...byT.values()].sort((a, b) => a.t - b.t),
    (t) => ({ t }) as MetricRow,
  );
  // Recharts needs every key present on every row to draw gaps rather than skip points.
  for (const row of rows) for (const l of lines) row[l.key] ??= null;
  return { rows, lines, unit: info.unit, label: info.label, max: info.max, hasData };
}
