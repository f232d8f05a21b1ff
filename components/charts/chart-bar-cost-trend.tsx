"use client";

import { useMemo } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type XAxisTickContentProps,
} from "recharts";
import { formatMoney } from "@/lib/format/money.ts";
import { shapeCostTrend, type TrendRow } from "./chart-bar-cost-trend.shape.ts";
import { CHART_MUTED, legendText, TOOLTIP_ITEM_STYLE } from "./legend-text.tsx";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

const USED = "#355f8d";
const IDLE = "#fde725";

/** A month under its slot, with "no data" below it when the ledger has nothing for that month. */
function MonthTick({
  x,
  y,
  label,
  rows,
}: {
  x: number | string;
  y: number | string;
  label: string;
  rows: readonly TrendRow[];
}) {
  const row = rows.find((r) => r.label === label);
  return (
    <g transform={`translate(${Number(x)},${Number(y)})`}>
      <text dy={12} textAnchor="middle" fill={CHART_MUTED} fontSize={11}>
        {label}
      </text>
      {row?.noData ? (
        <text
          dy={26}
          textAnchor="middle"
          fill={CHART_MUTED}
          fontSize={10}
          fontStyle="italic"
          data-testid="trend-no-data"
        >
          no data
        </text>
      ) : null}
    </g>
  );
}

/** Six months of spend, stacked into GPUs in use and idle GPUs. */
export function ChartBarCostTrend({
  trend,
  currency,
  selected,
}: {
  trend: readonly { month: string; totalMicros: string; idleMicros: string }[];
  currency: string;
  selected: string;
}) {
  const { rows, hasData, noDataNote } = useMemo(() => shapeCostTrend(trend), [trend]);
  if (!hasData) {
    return <div className="chart-empty">No spend recorded in these six months.</div>;
  }
  return (
    <>
      <div
        className="chart"
        data-testid="chart-cost-trend"
        role="img"
        aria-label={`Spend per month, six months to ${selected}${noDataNote ? `. ${noDataNote}` : ""}`}
      >
        <ResponsiveContainer width="100%" height={230}>
          <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e4e7eb" vertical={false} />
            <XAxis
              dataKey="label"
              height={40}
              interval={0}
              tick={(props: XAxisTickContentProps) => (
                <MonthTick
                  x={props.x}
                  y={props.y}
                  label={String(props.payload.value)}
                  rows={rows}
                />
              )}
            />
            <YAxis
              tickFormatter={(v: number) => compact.format(v)}
              width={52}
              fontSize={11}
              tick={{ fill: CHART_MUTED }}
            />
            <Tooltip
              itemStyle={TOOLTIP_ITEM_STYLE}
              formatter={(_v, name, item) => {
                const row = item.payload as TrendRow;
                return name === "idle"
                  ? [formatMoney(row.displayIdleMicros, currency), "idle GPUs"]
                  : [formatMoney(row.displayUsedMicros, currency), "GPUs in use"];
              }}
            />
            <Legend
              iconSize={10}
              wrapperStyle={{ fontSize: 11 }}
              // the words in ink: the idle bars' yellow is unreadable as text on white
              formatter={(v: string) => legendText(v === "idle" ? "idle GPUs" : "GPUs in use")}
            />
            <Bar dataKey="used" name="used" stackId="spend" fill={USED} isAnimationActive={false} />
            <Bar
              dataKey="idle"
              name="idle"
              stackId="spend"
              fill={IDLE}
              stroke="#8a7a00"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      {noDataNote ? (
        <p className="muted small chart-note" data-testid="trend-note">
          {noDataNote}
        </p>
      ) : null}
    </>
  );
}
