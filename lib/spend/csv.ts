import { stringify } from "csv-stringify/sync";
import { formatCents, roundToUnit } from "@/lib/core/money.ts";
import { microsToDecimal } from "@/lib/format/money.ts";
import type { CostInstanceRow } from "@/lib/zod/schemas/costs.ts";

// The CSV export is the per-instance table of the costs page: one row per instance per month, then
// one total row (priced = "total"). cost/idle_cost are exact six-place decimals (micro-dollars), so
// the instance rows sum to the total to the micro; cost_rounded/idle_cost_rounded are the page's
// cents, rounded by largest remainder so the instance rows sum exactly to the total row's cents.
// An unpriced instance has empty costs and priced = "no".

export const CSV_COLUMNS = [
  "month",
  "host_id",
  "hostname",
  "provider",
  "instance_type",
  "region",
  "pricing_model",
  "team",
  "project",
  "up_hours",
  "gpu_hours",
  "currency",
  "cost",
  "idle_cost",
  "priced",
  "cost_rounded",
  "idle_cost_rounded",
] as const;

/** The `priced` value of the last row, which holds the month's totals. */
export const CSV_TOTAL_ROW = "total";

export type CsvRow = Record<(typeof CSV_COLUMNS)[number], string>;

/** Hours with two decimals, from whole seconds, without float drift ("712.50"). */
export function hoursDecimal(seconds: number): string {
  const centiHours = Math.round((seconds * 100) / 3600);
  return `${Math.trunc(centiHours / 100)}.${String(centiHours % 100).padStart(2, "0")}`;
}

/** One row per instance, then the total row; rows must be one month's (they all carry it). */
export function toCsvRows(rows: readonly CostInstanceRow[], currency: string): CsvRow[] {
  const instanceRows = rows.map((r): CsvRow => ({
    month: r.month,
    host_id: r.hostId,
    hostname: r.hostname,
    provider: r.provider,
    instance_type: r.instanceType,
    region: r.region,
    pricing_model: r.pricingModel,
    team: r.team,
    project: r.project,
    up_hours: hoursDecimal(r.upSeconds),
    gpu_hours: hoursDecimal(r.gpuSeconds),
    currency,
    cost: r.priced === "no" ? "" : microsToDecimal(r.costMicros),
    idle_cost: r.priced === "no" ? "" : microsToDecimal(r.idleMicros),
    priced: r.priced,
    cost_rounded: r.priced === "no" ? "" : formatCents(BigInt(r.displayCostMicros)),
    idle_cost_rounded: r.priced === "no" ? "" : formatCents(BigInt(r.displayIdleMicros)),
  }));
  const months = new Set(rows.map((r) => r.month));
  if (months.size > 1)
    throw new RangeError(`CSV rows span several months: ${[...months].join(", ")}`);
  const sum = (pick: (r: CostInstanceRow) => string) =>
    rows.reduce((s, r) => s + BigInt(pick(r)), 0n);
  const total = sum((r) => r.costMicros);
  const idle = sum((r) => r.idleMicros);
  const totalRow: CsvRow = {
    month: rows[0]?.month ?? "",
    host_id: "",
    hostname: "Total",
    provider: "",
    instance_type: "",
    region: "",
    pricing_model: "",
    team: "",
    project: "",
    // hours are rounded per row to 0.01 h, so a summed figure would not add up: left empty
    up_hours: "",
    gpu_hours: "",
    currency,
    cost: microsToDecimal(total),
    idle_cost: microsToDecimal(idle),
    priced: CSV_TOTAL_ROW,
    cost_rounded: formatCents(roundToUnit(total)),
    idle_cost_rounded: formatCents(roundToUnit(idle)),
  };
  return [...instanceRows, totalRow];
}

/**
 * The CSV text. Host names, teams, projects and regions come from exporter labels, so a cell
 * starting with =, +, -, @, tab or CR is prefixed with ' (csv-stringify's escape_formulas) and a
 * spreadsheet shows it as text instead of running it. The number columns never start with one of
 * those (money and hours are never negative here), so they stay numeric. The last row is the total
 * (priced = "total"): leave it out when summing the instance rows.
 */
export function costsCsv(rows: readonly CostInstanceRow[], currency: string): string {
  return stringify(toCsvRows(rows, currency), {
    header: true,
    columns: [...CSV_COLUMNS],
    escape_formulas: true,
  });
}
