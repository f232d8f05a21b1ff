"use client";

import { useMemo } from "react";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatDateTime, formatTick } from "@/lib/format/time.ts";
import type { GpuSeriesDto } from "@/lib/zod/schemas/series.ts";
import { useTimeZone } from "../time-zone.tsx";
import { legendText, TOOLTIP_ITEM_STYLE } from "./legend-text.tsx";
import { shapeGpuMetric, type GpuMetric } from "./chart-line-gpu-metric.shape.ts";

/** One metric of one instance, a line per GPU. */
export function ChartLineGpuMetric({
  gpus,
  metric,
  domain,
}: {
  gpus: readonly GpuSeriesDto[];
  metric: GpuMetric;
  domain: [number, number];
}) {
  const tz = useTimeZone();
  const chart = useMemo(() => shapeGpuMetric(gpus, metric), [gpus, metric]);
  const span = domain[1] - domain[0];
  const title = `${chart.label} (${chart.unit})`;
  return (
    <figure className="panel" style={{ margin: 0 }} data-testid={`chart-gpu-${metric}`}>
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      {chart.hasData ? (
        <div className="chart" data-testid="gpu-chart" aria-label={`${title} per GPU`} role="img">
          <ResponsiveContainer width="100%" height={200}>
            <LineChart data={chart.rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#e4e7eb" vertical={false} />
              <XAxis
                dataKey="t"
                type="number"
                scale="time"
                domain={domain}
                tickFormatter={(v: number) => formatTick(v, tz, span)}
                minTickGap={40}
                fontSize={11}
              />
              <YAxis
                domain={chart.max !== undefined ? [0, chart.max] : [0, "auto"]}
                width={48}
                fontSize={11}
              />
              <Tooltip
                itemStyle={TOOLTIP_ITEM_STYLE}
                labelFormatter={(v) => formatDateTime(Number(v), tz)}
                formatter={(v) => `${String(v)} ${chart.unit}`}
              />
              {chart.lines.length > 1 ? (
                <Legend iconSize={10} wrapperStyle={{ fontSize: 11 }} formatter={legendText} />
              ) : null}
              {chart.lines.map((l) => (
                <Line
                  key={l.key}
                  dataKey={l.key}
                  name={l.label}
                  stroke={l.color}
                  strokeDasharray={l.dash}
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                  connectNulls={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      ) : (
        <div className="chart-empty">
          No {chart.label} samples in this range
          {metric === "util" ? " (GPUs in MIG mode do not report it)" : ""}.
        </div>
      )}
    </figure>
  );
}
