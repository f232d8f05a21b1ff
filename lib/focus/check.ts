import { parse } from "csv-parse/sync";
import { parquetMetadata, parquetReadObjects, type SchemaElement } from "hyparquet";
import { crossColumnIssues } from "./check-rules.ts";
import { parquetTypeProblem, valueProblem, type Cell } from "./check-values.ts";
import { IssueList, type CheckIssue } from "./issue-list.ts";
import { FOCUS_SPEC } from "./spec.ts";
import type { FocusSpec } from "./spec/parse-spec.ts";

// Checks a FOCUS table (CSV or Parquet) against the FOCUS 1.2 column definitions saved in
// lib/focus/spec: every Mandatory column present, no unknown column without the x_ prefix, each
// column's type (Parquet) and each value's format, nulls only where the spec allows them, allowed
// values, and the spec's MUST rules between columns (check-rules.ts).

export type { CheckIssue };

export interface FocusTable {
  format: "csv" | "parquet";
  columns: string[];
  /** Parquet only: each column's schema element */
  types?: Record<string, SchemaElement>;
  rows: Record<string, Cell>[];
}

function isNull(v: Cell | undefined): boolean {
  return v === null || v === undefined || (typeof v === "string" && v === "");
}

function columnIssues(table: FocusTable, spec: FocusSpec, issues: IssueList): void {
  const present = new Set(table.columns);
  if (present.size !== table.columns.length) {
    const dup = table.columns.filter((c, i) => table.columns.indexOf(c) !== i);
    for (const c of new Set(dup)) issues.add("column-unique", c, "column appears more than once");
  }
  for (const col of spec.columns) {
    if (col.featureLevel === "Mandatory" && !present.has(col.columnId)) {
      issues.add("mandatory-present", col.columnId, "Mandatory column is missing");
    }
  }
  for (const name of table.columns) {
    const col = spec.columns.find((c) => c.columnId === name);
    if (!col) {
      if (!name.startsWith("x_")) {
        issues.add("custom-prefix", name, "not a FOCUS 1.2 column and not prefixed x_");
      }
      continue;
    }
    const el = table.types?.[name];
    const problem = el ? parquetTypeProblem(col.dataType, el) : null;
    if (problem) issues.add("column-type", name, `${col.dataType} column ${problem}`);
  }
}

function valueIssues(table: FocusTable, spec: FocusSpec, issues: IssueList): void {
  const cols = spec.columns.filter((c) => table.columns.includes(c.columnId));
  table.rows.forEach((row, i) => {
    for (const col of cols) {
      const v = row[col.columnId];
      if (isNull(v)) {
        if (!col.allowsNulls)
          issues.add("not-null", col.columnId, "null in a column that allows none", i);
        continue;
      }
      const value = v as Cell;
      const problem = valueProblem(col.dataType, value);
      if (problem) {
        issues.add("value-format", col.columnId, `value ${problem}`, i);
        continue;
      }
      const allowed = col.allowedValues;
      if (allowed && !allowed.some((a) => a.value === value)) {
        issues.add("allowed-values", col.columnId, `"${String(value)}" is not an allowed value`, i);
      }
    }
  });
}

export function checkFocusTable(table: FocusTable, spec: FocusSpec = FOCUS_SPEC): CheckIssue[] {
  const issues = new IssueList();
  columnIssues(table, spec, issues);
  valueIssues(table, spec, issues);
  crossColumnIssues(table.rows, new Set(table.columns), issues);
  return issues.list();
}

/** A CSV export as a table: every cell text, an empty cell null (as FOCUS CSVs mean it). */
export function tableFromCsv(text: string): FocusTable {
  const records = parse(text, { bom: true, relax_column_count: false }) as string[][];
  const [header = [], ...body] = records;
  const rows = body.map((r) => {
    const row: Record<string, Cell> = {};
    header.forEach((name, j) => {
      const cell = r[j] ?? "";
      row[name] = cell === "" ? null : cell;
    });
    return row;
  });
  return { format: "csv", columns: header, rows };
}

/** A Parquet export as a table, with its schema for the column-type checks. */
export async function tableFromParquet(bytes: ArrayBuffer): Promise<FocusTable> {
  const metadata = parquetMetadata(bytes);
  const leaves = metadata.schema.slice(1);
  const types = Object.fromEntries(leaves.map((el) => [el.name, el]));
  const rows = (await parquetReadObjects({ file: bytes, metadata, rowFormat: "object" })) as Record<
    string,
    Cell
  >[];
  return { format: "parquet", columns: leaves.map((el) => el.name), types, rows };
}

/** Issues as lines a person can read: "PricingCategory allowed-values: "X" ... (3 rows: 0, 4, 9)". */
export function formatIssues(issues: readonly CheckIssue[]): string[] {
  return issues.map((i) => {
    const where = i.count > 0 ? ` (${i.count} rows: ${i.rows.join(", ")})` : "";
    return `${i.column} ${i.rule}: ${i.message}${where}`;
  });
}
