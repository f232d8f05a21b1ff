import { stringify } from "csv-stringify/sync";
import { formatCents } from "@/lib/core/money.ts";
import { microsToDecimal } from "@/lib/format/money.ts";
import type { HolderSpend } from "@/lib/zod/schemas/holder-spend.ts";
import { hoursDecimal } from "./csv.ts";

// The costs page's "who holds idle GPUs" table as CSV: one row per holder, the "not held" row, then
// the total row (holder = "Total"). cost/idle_cost are exact micro-dollar decimals; the _rounded
// columns are the page's cents, which add up to the total row's by largest remainder. Holder names
// come from process labels (user names, namespaces), so formula-like cells are escaped.

export const HOLDER_CSV_COLUMNS = [
  "month",
  "holder",
  "held",
  "gpu_hours",
  "idle_gpu_hours",
  "longest_idle_hours",
  "currency",
  "cost",
  "idle_cost",
  "cost_rounded",
  "idle_cost_rounded",
] as const;

export function holderSpendCsv(s: HolderSpend): string {
  const hours = (h: number) => h.toFixed(2);
  const rows = s.rows.map((r) => ({
    month: s.month,
    holder: r.holder,
    held: r.held ? "yes" : "no",
    gpu_hours: hours(r.gpuHours),
    idle_gpu_hours: hours(r.idleGpuHours),
    longest_idle_hours: hoursDecimal(r.longestIdleSeconds),
    currency: s.currency,
    cost: microsToDecimal(r.costMicros),
    idle_cost: microsToDecimal(r.idleMicros),
    cost_rounded: formatCents(BigInt(r.displayCostMicros)),
    idle_cost_rounded: formatCents(BigInt(r.displayIdleMicros)),
  }));
  rows.push({
    month: s.month,
    holder: "Total",
    held: "total",
    gpu_hours: "",
    idle_gpu_hours: "",
    longest_idle_hours: "",
    currency: s.currency,
    cost: microsToDecimal(s.totalMicros),
    idle_cost: microsToDecimal(s.idleMicros),
    cost_rounded: formatCents(BigInt(s.displayTotalMicros)),
    idle_cost_rounded: formatCents(BigInt(s.displayIdleMicros)),
  });
  return stringify(rows, { header: true, columns: [...HOLDER_CSV_COLUMNS], escape_formulas: true });
}
