// The --query-gpu fields the exporter wants, their aliases across drivers, and how to read
// each one. Drivers differ (clocks_throttle_reasons.* became clocks_event_reasons.* in 530;
// old ones lack mig.mode.*), and asking for an unknown field makes nvidia-smi fail outright,
// so the query is the intersection of this list with what --help-query-gpu lists.

import { CLOCK_EVENT_REASONS, type ClockEventReason } from "../readings.ts";
import type { Unit } from "./values.ts";

export type FieldKind =
  | { type: "text" }
  | { type: "int" }
  | { type: "number"; unit?: Unit }
  | { type: "bool" }
  | { type: "pstate" }
  | { type: "hex" };

export interface FieldSpec {
  /** canonical name, as the 590 driver spells it */
  key: string;
  /** names to try in order; the first one the driver lists is queried */
  candidates: string[];
  kind: FieldKind;
  required?: boolean;
}

const text: FieldKind = { type: "text" };
const num = (unit?: Unit): FieldKind => ({ type: "number", unit });

function reasonFields(): FieldSpec[] {
  const names: (ClockEventReason | "supported" | "active")[] = [
    "supported",
    "active",
    ...CLOCK_EVENT_REASONS.filter((r) => r !== "display_clocks_setting"),
  ];
  return names.map((r) => ({
    key: `clocks_event_reasons.${r}`,
    candidates: [`clocks_event_reasons.${r}`, `clocks_throttle_reasons.${r}`],
    kind: r === "supported" || r === "active" ? { type: "hex" } : { type: "bool" },
  }));
}

export const GPU_FIELDS: FieldSpec[] = [
  { key: "index", candidates: ["index"], kind: { type: "int" }, required: true },
  { key: "uuid", candidates: ["uuid", "gpu_uuid"], kind: text, required: true },
  { key: "name", candidates: ["name", "gpu_name"], kind: text },
  { key: "pci.bus_id", candidates: ["pci.bus_id", "gpu_bus_id"], kind: text },
  { key: "driver_version", candidates: ["driver_version"], kind: text },
  { key: "mig.mode.current", candidates: ["mig.mode.current"], kind: { type: "bool" } },
  { key: "utilization.gpu", candidates: ["utilization.gpu"], kind: num("%") },
  { key: "utilization.memory", candidates: ["utilization.memory"], kind: num("%") },
  { key: "memory.total", candidates: ["memory.total"], kind: num("MiB") },
  { key: "memory.used", candidates: ["memory.used"], kind: num("MiB") },
  { key: "memory.free", candidates: ["memory.free"], kind: num("MiB") },
  { key: "temperature.gpu", candidates: ["temperature.gpu"], kind: num("C") },
  { key: "power.draw", candidates: ["power.draw", "power.draw.instant"], kind: num("W") },
  {
    key: "enforced.power.limit",
    candidates: ["enforced.power.limit", "gpu.power.current_limit", "power.limit"],
    kind: num("W"),
  },
  { key: "clocks.current.sm", candidates: ["clocks.current.sm", "clocks.sm"], kind: num("MHz") },
  {
    key: "clocks.current.memory",
    candidates: ["clocks.current.memory", "clocks.mem"],
    kind: num("MHz"),
  },
  { key: "fan.speed", candidates: ["fan.speed"], kind: num("%") },
  { key: "pstate", candidates: ["pstate"], kind: { type: "pstate" } },
  {
    key: "ecc.errors.corrected.volatile.total",
    candidates: ["ecc.errors.corrected.volatile.total"],
    kind: { type: "int" },
  },
  {
    key: "ecc.errors.uncorrected.volatile.total",
    candidates: ["ecc.errors.uncorrected.volatile.total"],
    kind: { type: "int" },
  },
  ...reasonFields(),
];

const BY_NAME = new Map<string, FieldSpec>();
for (const spec of GPU_FIELDS) for (const c of spec.candidates) BY_NAME.set(c, spec);

/** The spec a column header or queried name stands for; "memory.used [MiB]" works too. */
export function fieldSpecFor(name: string): FieldSpec | undefined {
  return BY_NAME.get(name.replace(/\s*\[[^\]]*\]\s*$/, "").trim());
}

/** Every canonical field name, for a driver (or simulator) that supports them all. */
export const ALL_GPU_FIELD_NAMES: string[] = GPU_FIELDS.map((f) => f.key);

export interface ResolvedFields {
  /** names to pass to --query-gpu, in column order */
  query: string[];
  /** canonical keys the driver does not offer under any alias */
  missing: string[];
}

/** Intersect the wanted fields with the driver's list; throws if index or uuid is missing. */
export function resolveFields(available: ReadonlySet<string>): ResolvedFields {
  const query: string[] = [];
  const missing: string[] = [];
  for (const spec of GPU_FIELDS) {
    const name = spec.candidates.find((c) => available.has(c));
    if (name !== undefined) query.push(name);
    else if (spec.required) throw new Error(`nvidia-smi does not offer required field ${spec.key}`);
    else missing.push(spec.key);
  }
  return { query, missing };
}

/** --query-compute-apps fields; process_name goes last because it may itself contain ", ". */
export const APP_FIELDS = ["gpu_uuid", "pid", "used_gpu_memory", "process_name"];
