// Pure parser for `nvidia-smi --query-gpu=<fields> --format=csv[,noheader][,nounits]`.
// Works on the exporter's own stream (no header, no units, columns known) and on captures
// that carry a header and units ("memory.used [MiB]" / "8192 MiB"). nvidia-smi does not quote
// CSV, but no --query-gpu value contains a comma, so a plain split is exact.

import {
  CLOCK_EVENT_REASONS,
  reasonBit,
  type ClockEventReason,
  type GpuReading,
  type ParseResult,
} from "../readings.ts";
import { fieldSpecFor, type FieldSpec } from "./fields.ts";
import {
  parseBool,
  parseHex,
  parseInteger,
  parseNumber,
  parsePstate,
  parseText,
} from "./values.ts";

export interface QueryLayout {
  width: number;
  /** column position → spec, only for the best-ranked column of each spec */
  columns: (FieldSpec | undefined)[];
  hasIndex: boolean;
  /** how many columns the parser understands */
  known: number;
}

export function compileLayout(names: string[]): QueryLayout {
  const best = new Map<FieldSpec, { col: number; rank: number }>();
  names.forEach((name, col) => {
    const spec = fieldSpecFor(name);
    if (!spec) return;
    const rank = spec.candidates.indexOf(name.replace(/\s*\[[^\]]*\]\s*$/, "").trim());
    const prev = best.get(spec);
    if (!prev || rank < prev.rank) best.set(spec, { col, rank });
  });
  const columns: (FieldSpec | undefined)[] = names.map(() => undefined);
  for (const [spec, { col }] of best) columns[col] = spec;
  return {
    width: names.length,
    columns,
    hasIndex: columns.some((c) => c?.key === "index"),
    known: columns.filter(Boolean).length,
  };
}

type Value = number | boolean | bigint | string;

function readValue(spec: FieldSpec, raw: string): { value?: Value; invalid?: boolean } {
  const k = spec.kind;
  if (k.type === "text") return { value: parseText(raw) };
  const r =
    k.type === "int"
      ? parseInteger(raw)
      : k.type === "number"
        ? parseNumber(raw, k.unit)
        : k.type === "bool"
          ? parseBool(raw)
          : k.type === "pstate"
            ? parsePstate(raw)
            : parseHex(raw);
  if (r.ok) return { value: r.value };
  return r.absent ? {} : { invalid: true };
}

type NumericKey = {
  [K in keyof GpuReading]-?: GpuReading[K] extends number | undefined ? K : never;
}[keyof GpuReading];

const NUMERIC_TARGETS: Record<string, Exclude<NumericKey, "index">> = {
  "utilization.gpu": "utilizationRatio",
  "utilization.memory": "memoryUtilizationRatio",
  "memory.total": "memoryTotalBytes",
  "memory.used": "memoryUsedBytes",
  "memory.free": "memoryFreeBytes",
  "temperature.gpu": "temperatureCelsius",
  "power.draw": "powerDrawWatts",
  "enforced.power.limit": "powerLimitWatts",
  "clocks.current.sm": "smClockHertz",
  "clocks.current.memory": "memoryClockHertz",
  "fan.speed": "fanSpeedRatio",
  pstate: "performanceState",
  "ecc.errors.corrected.volatile.total": "eccCorrectedTotal",
  "ecc.errors.uncorrected.volatile.total": "eccUncorrectedTotal",
};

const NUMERIC_LIST = Object.entries(NUMERIC_TARGETS);
const REASONS: [ClockEventReason, string, bigint][] = CLOCK_EVENT_REASONS.map((r) => [
  r,
  `clocks_event_reasons.${r}`,
  reasonBit(r),
]);

function clockEvents(values: Map<string, Value>): GpuReading["clockEvents"] {
  const supported = values.get("clocks_event_reasons.supported");
  const active = values.get("clocks_event_reasons.active");
  const out: GpuReading["clockEvents"] = {};
  for (const [reason, key, bit] of REASONS) {
    if (typeof supported === "bigint" && (supported & bit) === 0n) continue;
    const own = values.get(key);
    if (typeof own === "boolean") out[reason] = own;
    else if (typeof active === "bigint") out[reason] = (active & bit) !== 0n;
  }
  return out;
}

/**
 * One data line → a reading, or a reason why the line was skipped. `row` stands in for the
 * index when a capture did not query it (nvidia-smi prints GPUs in index order).
 */
export function parseQueryLine(
  line: string,
  layout: QueryLayout,
  row?: number,
): GpuReading | string {
  const cells = line.split(",");
  if (cells.length !== layout.width) {
    return `expected ${layout.width} fields, got ${cells.length}: ${line.slice(0, 120)}`;
  }
  const values = new Map<string, Value>();
  const invalid: string[] = [];
  for (let i = 0; i < layout.columns.length; i++) {
    const spec = layout.columns[i];
    if (!spec) continue;
    const raw = cells[i] ?? "";
    const { value, invalid: bad } = readValue(spec, raw);
    if (bad) invalid.push(`${spec.key}=${JSON.stringify(raw.trim())}`);
    else if (value !== undefined) values.set(spec.key, value);
  }
  const index = layout.hasIndex ? values.get("index") : row;
  const uuid = values.get("uuid");
  if (typeof index !== "number" || typeof uuid !== "string" || uuid === "") {
    return `no valid index/uuid: ${line.slice(0, 120)}`;
  }
  // A line whose values are mostly unreadable is garbage, not a GPU with odd values.
  if (invalid.length > layout.known / 2) {
    return `unreadable values ${invalid.slice(0, 3).join(" ")}`;
  }
  const reading: GpuReading = { index, uuid, clockEvents: clockEvents(values) };
  const str = (k: string) => {
    const v = values.get(k);
    return typeof v === "string" ? v : undefined;
  };
  reading.name = str("name");
  reading.pciBusId = str("pci.bus_id");
  reading.driverVersion = str("driver_version");
  const mig = values.get("mig.mode.current");
  if (typeof mig === "boolean") reading.migEnabled = mig;
  for (const [key, target] of NUMERIC_LIST) {
    const v = values.get(key);
    if (typeof v === "number") reading[target] = v;
  }
  return reading;
}

/**
 * Parse a whole batch. Without `columns`, the first line is the header (a capture made with
 * --format=csv). A malformed line is reported in `warnings` and the rest are kept.
 */
export function parseQueryGpu(text: string, columns?: string[]): ParseResult<GpuReading> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  let names = columns;
  if (!names) {
    const header = lines.shift();
    if (header === undefined) return { items: [], warnings: [] };
    names = header.split(",").map((h) => h.trim());
  }
  const layout = compileLayout(names);
  const items: GpuReading[] = [];
  const warnings: string[] = [];
  for (const [row, line] of lines.entries()) {
    const r = parseQueryLine(line, layout, row);
    if (typeof r === "string") warnings.push(r);
    else items.push(r);
  }
  return { items, warnings };
}
