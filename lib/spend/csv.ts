import { stringify } from "csv-stringify/sync";
import { microsToDecimal } from "@/lib/format/money.ts";
import type { CostInstanceRow } from "@/lib/zod/schemas/costs.ts";

// The CSV export is the per-instance table of the costs page: one row per instance per month.
// Money is a plain decimal with all six places (exact micro-dollars), so the file sums to the
// page's total to the micro; an unpriced instance has an empty cost and priced = "no".

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
] as const;

export type CsvRow = Record<(typeof CSV_COLUMNS)[number], string>;

/** Hours with two decimals, from whole seconds, without float drift ("712.50"). */
export function hoursDecimal(seconds: number): string {
  const centiHours = Math.round((seconds * 100) / 3600);
  return `${Math.trunc(centiHours / 100)}.${String(centiHours % 100).padStart(2, "0")}`;
}

export function toCsvRows(rows: readonly CostInstanceRow[], currency: string): CsvRow[] {
  return rows.map((r) => ({
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
  }));
}

/**
 * The CSV text. Host names, teams, projects and regions come from exporter labels, so a cell
 * starting with =, +, -, @, tab or CR is prefixed with ' (csv-stringify's escape_formulas) and a
 * spreadsheet shows it as text instead of running it. The number columns never start with one of
 * those (money and hours are never negative here), so they stay numeric.
 */
export function costsCsv(rows: readonly CostInstanceRow[], currency: string): string {
  return stringify(toCsvRows(rows, currency), {
    header: true,
    columns: [...CSV_COLUMNS],
    escape_formulas: true,
  });
}
