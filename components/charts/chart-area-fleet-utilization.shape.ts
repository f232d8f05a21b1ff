import type { FleetSeriesDto } from "@/lib/zod/schemas/series.ts";
import { withGaps } from "./gaps.ts";

export interface FleetUtilPoint {
  t: number;
  /** mean SM utilization in percent, one decimal */
  util: number | null;
  gpus: number | null;
}

export interface FleetUtilChart {
  points: FleetUtilPoint[];
  domain: [number, number];
  spanMs: number;
  hasData: boolean;
  /** the newest utilization value, percent */
  latest: number | null;
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

export function shapeFleetUtilization(
  s: Pick<FleetSeriesDto, "util" | "gpusReporting" | "from" | "to">,
): FleetUtilChart {
  const byT = new Map<number, FleetUtilPoint>();
  for (const p of s.util) byT.set(p.t, { t: p.t, util: pct(p.v), gpus: null });
  for (const p of s.gpusReporting) {
    const row = byT.get(p.t) ?? { t: p.t, util: null, gpus: null };
    row.gpus = p.v;
    byT.set(p.t, row);
  }
  const points = withGaps(
    [...byT.values()].sort((a, b) => a.t - b.t),
    (t) => ({ t, util: null, gpus: null }),
  );
  const from = Date.parse(s.from);
  const to = Date.parse(s.to);
  const withUtil = points.filter((p) => p.util !== null);
  return {
    points,
    domain: [from, to],
    spanMs: to - from,
    hasData: withUtil.length > 0,
    latest: withUtil.at(-1)?.util ?? null,
  };
}
