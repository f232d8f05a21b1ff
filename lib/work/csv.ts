import { stringify } from "csv-stringify/sync";
import { formatMicros } from "../core/money.ts";
import type { UnitCostResult } from "./schema.ts";

// The costs page's "cost per unit of work" table as CSV: one row per provider, instance type,
// model and unit. Model names and instance types come from labels, so a cell starting with a
// formula character is escaped (csv-stringify's escape_formulas), as the costs CSV does.

export const WORK_CSV_COLUMNS = [
  "month",
  "provider",
  "instance_type",
  "gpus",
  "model",
  "mixed",
  "unit",
  "hosts",
  "units",
  "hours",
  "units_per_second_per_host",
  "cost",
  "cost_per_unit",
  "per",
  "status",
] as const;

export function unitCostsCsv(r: UnitCostResult): string {
  return stringify(
    r.byType.map((t) => ({
      month: r.month,
      provider: t.provider,
      instance_type: t.instanceType,
      gpus: t.gpus ?? "",
      model: t.model,
      mixed: t.mixed ? "true" : "false",
      unit: t.unit,
      hosts: String(t.hosts),
      units: String(Math.round(t.units)),
      hours: String(t.hours),
      units_per_second_per_host: t.perSecondPerHost.toFixed(3),
      cost: formatMicros(BigInt(t.costMicros)),
      cost_per_unit: t.perMicros === null ? "" : formatMicros(BigInt(t.perMicros)),
      per: t.per,
      status: t.status,
    })),
    { header: true, columns: [...WORK_CSV_COLUMNS], escape_formulas: true },
  );
}
