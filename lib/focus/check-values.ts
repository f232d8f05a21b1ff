import type { SchemaElement } from "hyparquet";
import type { SpecDataType } from "./spec/parse-spec.ts";

// One cell or one Parquet column against a FOCUS data type, per the spec's attributes:
// NumericFormat (plain or E-notation decimals, no "+", no separators or symbols), DateTimeFormat
// ("YYYY-MM-DDTHH:mm:ssZ", UTC), KeyValueFormat (a JSON object of scalars) and StringHandling.

export type Cell = string | number | bigint | boolean | Date | object | null;

/** An exact decimal: n × 10^-scale. */
export interface Rational {
  n: bigint;
  scale: number;
}

const NUMERIC = /^-?\d+(?:\.\d+)?(?:E-?\d+)?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Parses a decimal string (NumericFormat, or JavaScript's "1e-7" when `loose`) exactly. */
export function parseRational(text: string, loose = false): Rational | null {
  const t = loose ? text.replace(/e\+?/i, "E") : text;
  if (!NUMERIC.test(t)) return null;
  const [mantissa = "", exp = "0"] = t.split("E");
  const [whole = "", fraction = ""] = mantissa.split(".");
  const n = BigInt(`${whole}${fraction}`);
  const scale = fraction.length - Number(exp);
  return scale >= 0 ? { n, scale } : { n: n * 10n ** BigInt(-scale), scale: 0 };
}

/** A Decimal cell as a rational: CSV text exactly, a Parquet number through its shortest form. */
export function toRational(value: Cell): Rational | null {
  if (typeof value === "string") return parseRational(value);
  if (typeof value === "bigint") return { n: value, scale: 0 };
  if (typeof value === "number" && Number.isFinite(value))
    return parseRational(String(value), true);
  return null;
}

export function rationalToNumber(r: Rational): number {
  return Number(r.n) / 10 ** r.scale;
}

/** Why `value` is not a valid non-null value of `type`, or null when it is. */
export function valueProblem(type: SpecDataType, value: Cell): string | null {
  switch (type) {
    case "Decimal":
    case "Integer": {
      if (typeof value === "number" && !Number.isFinite(value)) return "is not a finite number";
      const r = toRational(value);
      if (!r) return "is not a number in FOCUS NumericFormat";
      if (type === "Integer" && r.scale > 0 && r.n % 10n ** BigInt(r.scale) !== 0n) {
        return "is not an integer";
      }
      return null;
    }
    case "Date/Time": {
      if (value instanceof Date)
        return Number.isNaN(value.getTime()) ? "is not a valid date" : null;
      if (typeof value !== "string") return "is not a date/time";
      if (!DATETIME.test(value)) return "is not YYYY-MM-DDTHH:mm:ssZ (ISO 8601, UTC)";
      const d = new Date(value);
      if (Number.isNaN(d.getTime()) || d.toISOString().replace(".000Z", "Z") !== value) {
        return "is not a real date/time";
      }
      return null;
    }
    case "String":
      if (typeof value !== "string") return "is not a string";
      return value.trim() === "" ? "is an empty string (FOCUS uses null for no value)" : null;
    case "JSON":
      return keyValueProblem(value);
  }
}

function keyValueProblem(value: Cell): string | null {
  let obj: unknown = value;
  if (typeof value === "string") {
    try {
      obj = JSON.parse(value);
    } catch {
      return "is not valid JSON";
    }
  }
  if (obj === null || typeof obj !== "object" || Array.isArray(obj) || obj instanceof Date) {
    return "is not a JSON object (KeyValueFormat)";
  }
  for (const [k, v] of Object.entries(obj)) {
    if (v !== null && typeof v === "object") return `has a non-scalar value under "${k}"`;
  }
  return null;
}

/** Whether a Parquet column's type can hold a FOCUS `type`; the reason when it cannot. */
export function parquetTypeProblem(type: SpecDataType, el: SchemaElement): string | null {
  const logical = el.logical_type?.type;
  const converted = el.converted_type;
  const isString = el.type === "BYTE_ARRAY" && (converted === "UTF8" || logical === "STRING");
  switch (type) {
    case "Decimal":
      if (converted === "DECIMAL" || logical === "DECIMAL") return null;
      if (el.type === "DOUBLE" || el.type === "FLOAT") return null;
      if ((el.type === "INT32" || el.type === "INT64") && !converted && !logical) return null;
      return `is ${describe(el)}, not a decimal or floating-point type`;
    case "Integer":
      if ((el.type === "INT32" || el.type === "INT64") && !converted?.startsWith("TIME")) {
        return null;
      }
      return `is ${describe(el)}, not an integer type`;
    case "Date/Time": {
      const lt = el.logical_type;
      if (lt?.type === "TIMESTAMP") {
        return lt.isAdjustedToUTC ? null : "is a TIMESTAMP not adjusted to UTC";
      }
      if (converted === "TIMESTAMP_MILLIS" || converted === "TIMESTAMP_MICROS") return null;
      return `is ${describe(el)}, not a TIMESTAMP`;
    }
    case "String":
      return isString ? null : `is ${describe(el)}, not a UTF-8 string`;
    case "JSON":
      if (converted === "JSON" || logical === "JSON" || isString) return null;
      return `is ${describe(el)}, not JSON or a UTF-8 string`;
  }
}

function describe(el: SchemaElement): string {
  const annotation = el.logical_type?.type ?? el.converted_type;
  return annotation ? `${el.type ?? "group"} (${annotation})` : (el.type ?? "a group");
}
