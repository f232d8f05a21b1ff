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
} from "recharts";
import { formatMoney } from "@/lib/format/money.ts";
import { shapeCostTrend, type TrendRow } from "./chart-bar-cost-trend.shape.ts";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

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
  const { rows, hasData } = useMemo(() => shapeCostTrend(trend), [trend]);
  if (!hasData) {
    return <div className="chart-empty">No spend recorded in these six months.</div>;
  }
  return (
    <div
      className="chart"
      data-testid="chart-cost-trend"
      role="img"
      aria-label={`Spend per month, six months to ${selected}`}
    >
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e4e7eb" vertical={false} />
          <XAxis dataKey="label" fontSize={11} />
          <YAxis tickFormatter={(v: number) => compact.format(v)} width={52} fontSize={11} />
          <Tooltip
            formatter={(_v, name, item) => {
              const row = item.payload as TrendRow;
              return name === "idle"
                ? [formatMoney(row.idleMicros, currency), "idle GPUs"]
                : [
                    formatMoney(BigInt(row.totalMicros) - BigInt(row.idleMicros), currency),
                    "GPUs in use",
                  ];
            }}
          />
          <Legend
            iconSize={10}
            wrapperStyle={{ fontSize: 11 }}
            formatter={(v: string) => (v === "idle" ? "idle GPUs" : "GPUs in use")}
          />
          <Bar
            dataKey="used"
            name="used"
            stackId="spend"
            fill="#355f8d"
            isAnimationActive={false}
          />
          <Bar
            dataKey="idle"
            name="idle"
            stackId="spend"
            fill="#fde725"
            stroke="#8a7a00"
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
