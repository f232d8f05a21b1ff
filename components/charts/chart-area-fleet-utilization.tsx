"use client";

import { useMemo } from "react";
import {
  Area,
  AreaChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatDateTime, formatTick } from "@/lib/format/time.ts";
import type { FleetSeriesDto } from "@/lib/zod/schemas/series.ts";
import { useTimeZone } from "../time-zone.tsx";
import { shapeFleetUtilization } from "./chart-area-fleet-utilization.shape.ts";

const FILL = "#21918c";

export function ChartAreaFleetUtilization({ series }: { series: FleetSeriesDto }) {
  const tz = useTimeZone();
  const chart = useMemo(() => shapeFleetUtilization(series), [series]);
  if (!chart.hasData) {
    return (
      <div className="chart-empty" data-testid="chart-fleet-util-empty">
        No utilization samples in this range yet.
      </div>
    );
  }
  return (
    <div
      className="chart"
      data-testid="chart-fleet-util"
      role="figure"
      aria-label={`Mean fleet SM utilization, latest ${chart.latest ?? "—"}%`}
    >
      <ResponsiveContainer width="100%" height={220}>
        <AreaChart data={chart.points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e4e7eb" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={chart.domain}
            tickFormatter={(v: number) => formatTick(v, tz, chart.spanMs)}
            minTickGap={40}
            fontSize={11}
          />
          <YAxis
            domain={[0, 100]}
            tickFormatter={(v: number) => `${v}%`}
            width={44}
            fontSize={11}
          />
          <Tooltip
            labelFormatter={(v) => formatDateTime(Number(v), tz)}
            formatter={(v, name) =>
              name === "util" ? [`${String(v)}%`, "mean SM utilization"] : [String(v), "GPUs"]
            }
          />
          <Area
            type="monotone"
            dataKey="util"
            name="util"
            stroke={FILL}
            fill={FILL}
            fillOpacity={0.25}
            strokeWidth={1.5}
            isAnimationActive={false}
            connectNulls={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
