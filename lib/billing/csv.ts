import { stringify } from "csv-stringify/sync";
import type { Reconciliation } from "./reconcile.ts";

// The reconciliation as CSV for finance: every billed GPU instance (hosts, then the instances
// nobody monitors), then the total. Names, resource ids, teams and reasons come from bills and
// exporter labels, so a text cell starting with =, +, -, @, tab or CR is prefixed with ' and a
// spreadsheet shows it as text instead of running it; money columns stay numbers (a variance may
// be negative, so the escape is applied per text column, not to the whole row).

export const RECONCILE_CSV_COLUMNS = [
  "kind",
  "instance",
  "team",
  "provider",
  "pricing_model",
  "instance_type",
  "region",
  "account",
  "billed_hours",
  "ledger_hours",
  "estimate_usd",
  "billed_usd",
  "effective_usd",
  "variance_usd",
  "variance_pct",
  "reason",
] as const;

const FORMULA = /^[=+\-@\t\r]/;

/** A text cell that a spreadsheet will not evaluate. */
export function textCell(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

export function reconciliationCsv(r: Reconciliation): string {
  const rows = [...r.hosts, ...r.unmonitored].map((x) => [
    x.kind,
    textCell(x.name),
    textCell(x.team),
    textCell(x.provider),
    textCell(x.pricingModel),
    textCell(x.instanceType),
    textCell(x.region),
    textCell(x.account),
    x.billedHours,
    x.ledgerHours,
    x.display.estimate,
    x.display.billed,
    x.display.effective,
    x.display.variance,
    x.variancePct ?? "",
    textCell(x.kind === "unmonitored" ? "on the bill, no exporter" : (x.reason ?? "")),
  ]);
  const t = r.total.display;
  rows.push([
    "total",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    t.estimate,
    t.billed,
    t.effective,
    t.variance,
    r.total.variancePct ?? "",
    "",
  ]);
  return stringify(rows, { header: true, columns: [...RECONCILE_CSV_COLUMNS] });
}
