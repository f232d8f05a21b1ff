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
import type { EvidencePoint } from "@/lib/zod/schemas/recommendation.ts";
import { shapeEvidence } from "./chart-line-recommendation-evidence.shape.ts";
import { legendText, TOOLTIP_ITEM_STYLE } from "./legend-text.tsx";

/** The evidence behind a recommendation: daily utilization, memory, idle and up time, in %. */
export function ChartLineRecommendationEvidence({
  series,
  title,
}: {
  series: readonly EvidencePoint[];
  title: string;
}) {
  const chart = useMemo(() => shapeEvidence(series), [series]);
  if (!chart.hasData) return <div className="chart-empty">No ledger data in the window.</div>;
  return (
    <div className="chart" data-testid="chart-evidence" role="img" aria-label={title}>
      <ResponsiveContainer width="100%" height={200}>
        <LineChart data={chart.rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e4e7eb" vertical={false} />
          <XAxis dataKey="label" fontSize={11} minTickGap={20} />
          <YAxis domain={[0, 100]} width={40} fontSize={11} unit="%" />
          <Tooltip
            itemStyle={TOOLTIP_ITEM_STYLE}
            formatter={(v) => (v === null ? "—" : `${String(v)} %`)}
          />
          <Legend iconSize={10} wrapperStyle={{ fontSize: 11 }} formatter={legendText} />
          {chart.lines.map((l) => (
            <Line
              key={l.key}
              dataKey={l.key}
              name={l.label}
              stroke={l.color}
              strokeDasharray={l.dash}
              dot={chart.rows.length < 3}
              strokeWidth={1.5}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
