import { parsePico } from "../amount.ts";
import type { RawRecord } from "../types.ts";

// Reading cells by column name whatever the spelling: "Instance ID", "InstanceID" and
// "instance_id" are one column, as are CUR 2.0's "line_item_usage_type" and the legacy CUR's
// "lineItem/UsageType".

const keys = new Map<string, string>();

export function columnKey(name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    key = name.toLowerCase().replace(/[^a-z0-9]/g, "");
    if (keys.size < 10_000) keys.set(name, key); // headers are few; never grow without bound
  }
  return key;
}

/** A record re-keyed by columnKey (the first of two columns with one key wins). */
export function keyed(rec: RawRecord): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(rec)) {
    const key = columnKey(k);
    if (!out.has(key)) out.set(key, v);
  }
  return out;
}

/** The first non-empty cell of `names`, as text ("" when none). */
export function text(rec: Map<string, unknown>, ...names: string[]): string {
  for (const n of names) {
    const v = rec.get(columnKey(n));
    if (v === null || v === undefined) continue;
    const s = v instanceof Date ? v.toISOString() : String(v).trim();
    if (s !== "") return s;
  }
  return "";
}

/** An amount cell in 1e-12 units; null when empty; a clear error when not a number. */
export function amount(rec: Map<string, unknown>, name: string): bigint | null {
  const v = rec.get(columnKey(name));
  try {
    return parsePico(v);
  } catch {
    throw new RangeError(
      `column ${name}: not an amount: ${JSON.stringify(String(v).slice(0, 40))}`,
    );
  }
}

const NAIVE = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?$/;

/**
 * A time cell: ISO 8601 with an offset or Z as written; a time without one ("2026-11-01
 * 00:00:00") is read at `naiveOffset` ("+08:00" for the Chinese providers' consoles, "Z" else).
 */
export function time(rec: Map<string, unknown>, name: string, naiveOffset = "Z"): Date | null {
  const v = rec.get(columnKey(name));
  if (v === null || v === undefined || v === "") return null;
  if (v instanceof Date) return v;
  if (typeof v === "bigint" || typeof v === "number") return new Date(Number(v));
  const s = String(v).trim();
  const m = NAIVE.exec(s);
  const iso = m ? `${m[1]}T${m[2] ?? "00:00:00"}${naiveOffset}` : s;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime()))
    throw new RangeError(`column ${name}: not a time: ${JSON.stringify(s.slice(0, 40))}`);
  return d;
}

/** Whether every one of `names` is a column of the header (compared by columnKey). */
export function hasColumns(header: ReadonlySet<string>, names: readonly string[]): boolean {
  return names.every((n) => header.has(columnKey(n)));
}
