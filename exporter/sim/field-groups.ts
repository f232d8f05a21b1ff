// Groups of nvidia-smi query fields that share a rule (ECC counters, clock event reasons,
// fabric health), the field aliases, and small formatters shared by the renderers.
import type { GpuModel } from "./gpu-models.ts";
import { hashString } from "./rand.ts";
import type { SimGpuSample, SimGpuSpec, SimHostSpec } from "./types.ts";

export interface FieldContext {
  host: SimHostSpec;
  gpu: SimGpuSpec;
  s: SimGpuSample;
  model: GpuModel;
  at: Date;
}

export type Value = (c: FieldContext) => string;

export const NA = "[N/A]";
export const DEPRECATED = "[Requested functionality has been deprecated]";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** the GPU is clocked up (not sitting at its idle clock) */
export function clockedUp(c: FieldContext): boolean {
  return c.s.smClockMHz > c.model.clocks.smIdle;
}

/** clocks_event_reasons bitmask (nvml.h): 0x1 gpu_idle, 0x4 sw_power_cap */
export function eventReasons(c: FieldContext): number {
  if (!clockedUp(c)) return 0x1;
  return c.s.powerDrawW >= c.gpu.powerLimitW * 0.95 ? 0x4 : 0;
}

export function timestamp(at: Date): string {
  const date = `${at.getUTCFullYear()}/${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
  return `${date} ${time}.${pad(at.getUTCMilliseconds(), 3)}`;
}

export function serialOf(uuid: string): string {
  return `1${String(hashString(uuid) % 1e6).padStart(6, "0")}${String(hashString(`s${uuid}`) % 1e6).padStart(6, "0")}`;
}

export function busParts(busId: string): { domain: string; bus: string; device: string } {
  const m = /^([0-9A-Fa-f]+):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})\.\d$/.exec(busId);
  return { domain: m?.[1]?.slice(-4) ?? "0000", bus: m?.[2] ?? "00", device: m?.[3] ?? "00" };
}

const eccCounts = (pick: (s: SimGpuSample) => number): Record<string, Value> => ({
  device_memory: (c) => String(pick(c.s)),
  dram: (c) => String(pick(c.s)),
  register_file: () => NA,
  l1_cache: () => NA,
  l2_cache: () => NA,
  texture_memory: () => NA,
  cbu: () => NA,
  sram: () => "0",
  total: (c) => String(pick(c.s)),
});

export function eccFields(): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [kind, pick] of [
    ["corrected", (s: SimGpuSample) => s.eccCorrected],
    ["uncorrected", (s: SimGpuSample) => s.eccUncorrected],
  ] as const) {
    for (const scope of ["volatile", "aggregate"]) {
      for (const [name, v] of Object.entries(eccCounts(pick))) {
        out[`ecc.errors.${kind}.${scope}.${name}`] = v;
      }
    }
  }
  for (const f of ["volatile.sram.parity", "volatile.sram.secded", "aggregate.sram.parity"]) {
    out[`ecc.errors.uncorrected.${f}`] = () => "0";
  }
  for (const f of ["secded", "l2", "sm", "mcu", "pcie", "other"]) {
    out[`ecc.errors.uncorrected.aggregate.sram.${f}`] = () => "0";
  }
  out["ecc.errors.uncorrected.aggregate.sram.thresholdExceeded"] = () => "No";
  return out;
}

const REASONS = [
  ["gpu_idle", 0x1],
  ["applications_clocks_setting", 0x2],
  ["sw_power_cap", 0x4],
  ["hw_slowdown", 0x8],
  ["sync_boost", 0x10],
  ["sw_thermal_slowdown", 0x20],
  ["hw_thermal_slowdown", 0x40],
  ["hw_power_brake_slowdown", 0x80],
] as const;

export function reasonFields(): Record<string, Value> {
  const out: Record<string, Value> = {
    "clocks_event_reasons.supported": () => "0x00000000000001FF",
    "clocks_event_reasons.active": (c) =>
      `0x${eventReasons(c).toString(16).toUpperCase().padStart(16, "0")}`,
  };
  for (const [name, bit] of REASONS) {
    out[`clocks_event_reasons.${name}`] = (c) =>
      (eventReasons(c) & bit) !== 0 ? "Active" : "Not Active";
  }
  for (const name of ["sw_power_cap", "sync_boost", "sw_thermal_slowdown"]) {
    out[`clocks_event_reasons_counters.${name}`] = () => "0";
  }
  for (const name of ["hw_thermal_slowdown", "hw_power_brake_slowdown"]) {
    out[`clocks_event_reasons_counters.${name}`] = () => "0";
  }
  return out;
}

export function fabricHealthFields(v: Value): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const h of [
    "summary",
    "bandwidth",
    "route_recovery_in_progress",
    "route_unhealthy",
    "access_timeout_recovery",
    "incorrect_configuration",
  ]) {
    out[`fabric.health.${h}`] = v;
  }
  return out;
}

/** `"name" or "gpu_name"`: the second spelling of each field, as --help-query-gpu lists them */
export const ALIASES: Readonly<Record<string, string>> = {
  gpu_name: "name",
  gpu_serial: "serial",
  gpu_uuid: "uuid",
  gpu_bus_id: "pci.bus_id",
  "inforom.image": "inforom.img",
  "inforom.power": "inforom.pwr",
  "gpu_operation_mode.current": "gom.current",
  "gpu_operation_mode.pending": "gom.pending",
  "retired_pages.sbe": "retired_pages.single_bit_ecc.count",
  "retired_pages.dbe": "retired_pages.double_bit.count",
  "remapped_rows.sbe": "remapped_rows.correctable",
  "remapped_rows.dbe": "remapped_rows.uncorrectable",
  "gpu.power.draw.average": "power.draw.average",
  "gpu.power.draw.instant": "power.draw.instant",
  "gpu.power.requested_limit": "power.limit",
  "gpu.power.current_limit": "enforced.power.limit",
  "gpu.power.default_limit": "power.default_limit",
  "gpu.power.min_limit": "power.min_limit",
  "gpu.power.max_limit": "power.max_limit",
  "clocks.gr": "clocks.current.graphics",
  "clocks.sm": "clocks.current.sm",
  "clocks.mem": "clocks.current.memory",
  "clocks.video": "clocks.current.video",
  "clocks.applications.gr": "clocks.applications.graphics",
  "clocks.applications.mem": "clocks.applications.memory",
  "clocks.default_applications.gr": "clocks.default_applications.graphics",
  "clocks.default_applications.mem": "clocks.default_applications.memory",
  "clocks.max.gr": "clocks.max.graphics",
  "clocks.max.mem": "clocks.max.memory",
};

/** resolve an alias such as `clocks_throttle_reasons.*` to the canonical field name */
export function canonicalField(field: string): string {
  const f = field.trim();
  if (f.startsWith("clocks_throttle_reasons.")) {
    return `clocks_event_reasons.${f.slice("clocks_throttle_reasons.".length)}`;
  }
  return ALIASES[f] ?? f;
}

/** GPUs that answer, with their sample: a GPU that fell off the bus prints no line. */
export function reportingGpus(
  host: SimHostSpec,
  samples: readonly SimGpuSample[],
): { gpu: SimGpuSpec; s: SimGpuSample }[] {
  const out: { gpu: SimGpuSpec; s: SimGpuSample }[] = [];
  host.gpus.forEach((gpu, i) => {
    const s = samples[i];
    if (s?.reporting) out.push({ gpu, s });
  });
  return out;
}
