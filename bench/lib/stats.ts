// Small numeric helpers for the reports.

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");
export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
export const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");

export function table(
  head: string[],
  rows: Array<Array<string | number>>,
  align?: string,
): string[] {
  const a = align ?? head.map((_, i) => (i === 0 ? "---" : "---:")).join("|");
  return [`| ${head.join(" | ")} |`, `|${a}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)];
}

/** One line of the goals table: what was asked, what was measured, and whether it is met. */
export interface Goal {
  goal: string;
  figure: string;
  met: boolean | null;
  /** why it is not met (what limits the figure), printed beside "not met" */
  reason?: string;
}

export interface Section {
  title: string;
  lines: string[];
  goals: Goal[];
}
