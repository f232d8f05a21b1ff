// The benchmark CSV: a header line `provider,instanceType,workload,unit,value,source,sourceDate,note`
// (note may be left empty, or its column left out), then one result per line. Any bad line refuses
// the whole file with its line number; nothing is written unless every line is good.
import { parse } from "csv-parse/sync";
import { InvalidInputError, issuesOf, type Issue } from "../core/errors.ts";
import { benchmarkInputSchema, CSV_HEADER, type BenchmarkInput } from "./schema.ts";

export const MAX_CSV_LINES = 5000;

type Parsed = { record: string[]; info: { lines: number } };

function refuse(message: string, issues: Issue[] = []): never {
  throw new InvalidInputError(message, issues.length ? issues : [{ path: "", message }]);
}

export function parseBenchmarkCsv(text: string): BenchmarkInput[] {
  let parsed: Parsed[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as Parsed[];
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    const why = e instanceof Error ? e.message : String(e);
    refuse(`the CSV cannot be read${line ? ` (line ${line})` : ""}: ${why}`);
  }
  const [head, ...body] = parsed;
  if (!head) refuse(`the CSV is empty: its first line is the header ${CSV_HEADER.join(",")}`);
  const header = head.record.map((h) => h.trim());
  const required = CSV_HEADER.slice(0, 7);
  const withNote = header.length === CSV_HEADER.length;
  const expected = withNote ? CSV_HEADER : required;
  if (header.length !== expected.length || header.some((h, i) => h !== expected[i])) {
    refuse(
      `line ${head.info.lines}: the header must be ${CSV_HEADER.join(",")} (note may be left out), not ${header.join(",")}`,
    );
  }
  if (body.length === 0) refuse("the CSV has a header but no results");
  if (body.length > MAX_CSV_LINES) refuse(`at most ${MAX_CSV_LINES} results per file`);

  const seen = new Map<string, number>();
  const issues: Issue[] = [];
  const rows: BenchmarkInput[] = [];
  for (const { record, info } of body) {
    const line = info.lines;
    if (record.length !== expected.length) {
      issues.push({
        path: `line ${line}`,
        message: `${record.length} fields, the header has ${expected.length}`,
      });
      continue;
    }
    const raw = Object.fromEntries(expected.map((k, i) => [k, record[i]]));
    const r = benchmarkInputSchema.safeParse(raw);
    if (!r.success) {
      for (const i of issuesOf(r.error))
        issues.push({ path: `line ${line}`, message: `${i.path}: ${i.message}` });
      continue;
    }
    const k = [
      r.data.provider,
      r.data.instanceType,
      r.data.workload,
      r.data.unit,
      r.data.source,
    ].join("\u0000");
    const first = seen.get(k);
    if (first !== undefined) {
      issues.push({ path: `line ${line}`, message: `the same result as line ${first}` });
      continue;
    }
    seen.set(k, line);
    rows.push(r.data);
  }
  const first = issues[0];
  if (first) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    refuse(`${first.path}: ${first.message}${more}; nothing was imported`, issues);
  }
  return rows;
}
