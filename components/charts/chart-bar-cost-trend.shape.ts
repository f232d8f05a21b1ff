import { microsToNumber } from "@/lib/format/money.ts";
import { monthBounds } from "@/lib/costs/month.ts";

export interface TrendRow {
  month: string;
  label: string;
  /** dollars, for bar geometry only; exact amounts stay in the micros fields */
  used: number;
  idle: number;
  totalMicros: string;
  idleMicros: string;
}

const short = new Intl.DateTimeFormat("en-US", {
  month: "short",
  year: "2-digit",
  timeZone: "UTC",
});

/** Each month split into spend on GPUs in use and spend on idle GPUs (stacked bars). */
export function shapeCostTrend(
  trend: readonly { month: string; totalMicros: string; idleMicros: string }[],
): { rows: TrendRow[]; hasData: boolean } {
  const rows = trend.map((t) => {
    const total = BigInt(t.totalMicros);
    const idle = BigInt(t.idleMicros);
    return {
      month: t.month,
      label: short.format(monthBounds(t.month).from),
      used: microsToNumber(total - idle),
      idle: microsToNumber(idle),
      totalMicros: t.totalMicros,
      idleMicros: t.idleMicros,
    };
  });
  return { rows, hasData: rows.some((r) => r.totalMicros !== "0") };
}
