import { roundPartsToTotal } from "@/lib/core/money.ts";
import { microsToNumber } from "@/lib/format/money.ts";
import { monthBounds, monthLabel } from "@/lib/core/months.ts";

export interface TrendRow {
  month: string;
  label: string;
  /** dollars, for bar geometry only; exact amounts stay in the micros fields */
  used: number;
  idle: number;
  totalMicros: string;
  idleMicros: string;
  /** the tooltip's two amounts, rounded to the cent so they add up to the month's total rounded once */
  displayUsedMicros: string;
  displayIdleMicros: string;
  /** no priced hour in the ledger this month: the axis says "no data" rather than an empty slot */
  noData: boolean;
}

const short = new Intl.DateTimeFormat("en-US", {
  month: "short",
  year: "2-digit",
  timeZone: "UTC",
});

/**
 * Each month split into spend on GPUs in use and spend on idle GPUs (stacked bars), and a note
 * naming the months with no ledger data: "before <first month with data>" when they all come
 * first (the ledger had not started), else the months themselves.
 */
export function shapeCostTrend(
  trend: readonly { month: string; totalMicros: string; idleMicros: string }[],
): { rows: TrendRow[]; hasData: boolean; noDataNote: string | null } {
  const rows = trend.map((t) => {
    const total = BigInt(t.totalMicros);
    const idle = BigInt(t.idleMicros);
    const [shownUsed = 0n, shownIdle = 0n] = roundPartsToTotal([total - idle, idle]);
    return {
      month: t.month,
      label: short.format(monthBounds(t.month).from),
      used: microsToNumber(total - idle),
      idle: microsToNumber(idle),
      totalMicros: t.totalMicros,
      idleMicros: t.idleMicros,
      displayUsedMicros: shownUsed.toString(),
      displayIdleMicros: shownIdle.toString(),
      noData: total === 0n,
    };
  });
  const hasData = rows.some((r) => !r.noData);
  return { rows, hasData, noDataNote: hasData ? noDataNote(rows) : null };
}

function noDataNote(rows: readonly TrendRow[]): string | null {
  const empty = rows.filter((r) => r.noData);
  if (empty.length === 0) return null;
  const first = rows.findIndex((r) => !r.noData);
  const leading = first === empty.length;
  const firstRow = rows[first];
  if (leading && firstRow) return `No ledger data before ${monthLabel(firstRow.month)}.`;
  return `No ledger data for ${empty.map((r) => monthLabel(r.month)).join(", ")}.`;
}
