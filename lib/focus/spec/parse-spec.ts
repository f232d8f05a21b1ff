import { createHash } from "node:crypto";

// Reads the FOCUS specification's column files (specification/columns/*.md) into the facts the
// checker needs. Pure: the build script feeds it the files, the test feeds it the stored originals
// and expects the stored facts back.

export type FeatureLevel = "Mandatory" | "Conditional" | "Recommended" | "Optional";
export type SpecDataType = "Decimal" | "Date/Time" | "String" | "JSON" | "Integer";

export interface AllowedValue {
  value: string;
  /** ServiceSubcategory only: the one ServiceCategory it belongs to */
  parent?: string;
}

export interface ColumnFacts {
  columnId: string;
  displayName: string;
  columnType: string;
  featureLevel: FeatureLevel;
  allowsNulls: boolean;
  dataType: SpecDataType;
  valueFormat: string;
  allowedValues: AllowedValue[] | null;
  introduced: string;
  description: string;
}

export interface SpecColumn extends ColumnFacts {
  /** the upstream file name under specification/columns/ */
  file: string;
  /** git's blob id of the file, so it can be matched against `git ls-tree` of the release */
  gitBlob: string;
  /** the file's text, verbatim */
  markdown: string;
}

export interface SpecAttribute {
  file: string;
  gitBlob: string;
  markdown: string;
}

export interface FocusSpec {
  version: string;
  repository: string;
  ref: string;
  commit: string;
  commitDate: string;
  license: string;
  columns: SpecColumn[];
  attributes: SpecAttribute[];
}

const FEATURE_LEVELS = new Set<string>(["Mandatory", "Conditional", "Recommended", "Optional"]);
const DATA_TYPES = new Set<string>(["Decimal", "Date/Time", "String", "JSON", "Integer"]);

/** The id git gives a file's content (`git hash-object`). */
export function gitBlobId(text: string): string {
  const body = Buffer.from(text, "utf8");
  return createHash("sha1")
    .update(Buffer.concat([Buffer.from(`blob ${body.length}\0`), body]))
    .digest("hex");
}

/** The text under `## <heading>` up to the next heading, trimmed. */
function section(md: string, heading: string): string | null {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.trim().toLowerCase() === `## ${heading.toLowerCase()}`);
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^#{1,3} /.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n").trim();
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());
}

/** The first markdown table at or after line `from`: header cells and body rows. */
function tableAt(lines: readonly string[], from: number): { header: string[]; rows: string[][] } {
  let i = from;
  while (i < lines.length && !lines[i]?.trim().startsWith("|")) i++;
  const header = cells(lines[i] ?? "");
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i]?.trim().startsWith("|"); i++) {
    rows.push(cells(lines[i] ?? ""));
  }
  return { header, rows };
}

function constraints(md: string, file: string): Map<string, string> {
  const lines = md.split("\n");
  const at = lines.findIndex((l) => /^## content constraints$/i.test(l.trim()));
  if (at < 0) throw new Error(`${file}: no "Content constraints" section`);
  const { rows } = tableAt(lines, at + 1);
  return new Map(rows.map(([k = "", v = ""]) => [k.toLowerCase(), v]));
}

function allowedValues(md: string, columnId: string): AllowedValue[] | null {
  const lines = md.split("\n");
  const at = lines.findIndex((l) => /^allowed values:?$/i.test(l.trim()));
  if (at < 0) return null;
  const { header, rows } = tableAt(lines, at + 1);
  const sub = header.findIndex((h) => h === "Service Subcategory");
  if (columnId === "ServiceSubcategory" && sub > 0) {
    return rows.map((r) => ({ value: r[sub] ?? "", parent: r[0] ?? "" }));
  }
  return rows.map((r) => ({ value: r[0] ?? "" }));
}

/** Derives one column's facts from its markdown file; throws on anything unexpected. */
export function parseColumn(md: string, file: string): ColumnFacts {
  const text = md.replace(/\r\n/g, "\n");
  const columnId = section(text, "Column ID");
  const displayName = section(text, "Display Name");
  if (!columnId || !displayName) throw new Error(`${file}: no Column ID or Display Name`);
  const c = constraints(text, file);
  const featureLevel = c.get("feature level") ?? "";
  const dataType = c.get("data type") ?? "";
  const nulls = c.get("allows nulls") ?? "";
  if (!FEATURE_LEVELS.has(featureLevel)) throw new Error(`${file}: feature level ${featureLevel}`);
  if (!DATA_TYPES.has(dataType)) throw new Error(`${file}: data type ${dataType}`);
  if (nulls !== "True" && nulls !== "False") throw new Error(`${file}: allows nulls ${nulls}`);
  const valueFormat = c.get("value format") ?? "";
  const values = allowedValues(text, columnId);
  if (/allowed values/i.test(valueFormat) && !values?.length) {
    throw new Error(`${file}: value format says allowed values, but none are listed`);
  }
  return {
    columnId,
    displayName,
    columnType: c.get("column type") ?? "",
    featureLevel: featureLevel as FeatureLevel,
    allowsNulls: nulls === "True",
    dataType: dataType as SpecDataType,
    valueFormat,
    allowedValues: values,
    introduced: section(text, "Introduced (version)") ?? "",
    description: section(text, "Description") ?? "",
  };
}

export function specColumn(md: string, file: string): SpecColumn {
  return { ...parseColumn(md, file), file, gitBlob: gitBlobId(md), markdown: md };
}
