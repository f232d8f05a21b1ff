"use client";

import { useMemo } from "react";
import {
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatMoney } from "@/lib/format/money.ts";
import {
  offersChartHeight,
  offersChartSummary,
  pricingName,
  shapeOffersChart,
  type ActualInput,
  type OfferInput,
  type OfferPoint,
} from "./chart-scatter-offers.shape.ts";
import { CHART_INK, CHART_MUTED } from "./legend-text.tsx";
import { OFFER_MARKS } from "./offer-marks.ts";

function OfferTip({ active, payload }: { active?: boolean; payload?: readonly unknown[] }) {
  const first = payload?.[0] as { payload?: OfferPoint } | undefined;
  const p = first?.payload;
  if (!active || !p) return null;
  return (
    <div className="chart-tip">
      <strong>
        {p.provider} · {pricingName(p.pricingModel)}
      </strong>
      <div>{formatMoney(p.perGpuHourMicros, "USD", 4)} per GPU-hour</div>
      <div className="muted">
        {p.instanceType} ({p.gpuCount} GPU{p.gpuCount === 1 ? "" : "s"},{" "}
        {p.region === "*" ? "any region" : p.region}): {formatMoney(p.usdPerHourMicros, "USD", 4)}{" "}
        per instance-hour
      </div>
    </div>
  );
}

/**
 * One GPU model's offers on a $/GPU-hour axis: a row per provider (cheapest first), a mark per
 * pricing model, and a dashed line at what the fleet paid per GPU-hour in the month.
 */
export function ChartScatterOffers({
  label,
  model,
  offers,
  actual,
}: {
  label: string;
  model: string;
  offers: readonly OfferInput[];
  actual: ActualInput | null;
}) {
  const chart = useMemo(() => shapeOffersChart(offers, actual), [offers, actual]);
  const summary = offersChartSummary(chart);
  const n = chart.providers.length;
  const actualUsd =
    chart.actualPerGpuHourMicros === null ? null : Number(chart.actualPerGpuHourMicros) / 1e6;
  return (
    <div
      className="chart offers-chart"
      data-testid="offers-chart"
      data-model={model}
      data-actual-micros={chart.actualPerGpuHourMicros ?? undefined}
      role="img"
      aria-label={`${label}, offers per GPU-hour. ${summary}`}
      style={{ minHeight: offersChartHeight(n) }}
    >
      <ResponsiveContainer width="100%" height={offersChartHeight(n)}>
        <ScatterChart margin={{ top: 20, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="#e4e7eb" horizontal={false} />
          <XAxis
            type="number"
            dataKey="x"
            domain={[0, chart.xMax]}
            tickFormatter={(v: number) => `$${Number.isInteger(v) ? v : v.toFixed(2)}`}
            fontSize={11}
            tick={{ fill: CHART_MUTED }}
            height={24}
          />
          <YAxis
            type="number"
            dataKey="y"
            domain={[-0.5, n - 0.5]}
            ticks={chart.providers.map((_, i) => i)}
            interval={0}
            reversed
            tickFormatter={(i: number) => chart.providers[i] ?? ""}
            width={64}
            fontSize={11}
            tick={{ fill: CHART_INK }}
          />
          <Tooltip cursor={false} content={OfferTip} />
          {chart.series.map((s) => {
            const mark = OFFER_MARKS[s.pricingModel] ?? OFFER_MARKS.other;
            return (
              <Scatter
                key={s.pricingModel}
                name={pricingName(s.pricingModel)}
                data={s.points}
                fill={mark.fill}
                stroke={mark.stroke}
                shape={mark.shape}
                isAnimationActive={false}
              />
            );
          })}
          {actualUsd !== null ? (
            <ReferenceLine
              x={actualUsd}
              stroke={CHART_INK}
              strokeDasharray="4 3"
              ifOverflow="extendDomain"
              label={{
                value: `fleet ${formatMoney(chart.actualPerGpuHourMicros ?? "0")}`,
                position: "top",
                fontSize: 11,
                fill: CHART_INK,
              }}
            />
          ) : null}
        </ScatterChart>
      </ResponsiveContainer>
    </div>
  );
}
