// Renders simulated samples exactly as nvidia-smi prints them, so the exporter's real
// parsers run unchanged against the simulator. samples[i] is host.gpus[i]'s sample.
import {
  canonicalField,
  NA,
  reportingGpus,
  serialOf,
  timestamp,
  type FieldContext,
} from "./field-groups.ts";
import { gpuModel } from "./gpu-models.ts";
import { FIELDS } from "./query-fields.ts";
import type { SimGpuSample, SimGpuSpec, SimHostSpec, SimProcess } from "./types.ts";

export { renderMigXml } from "./render-xml.ts";
export { reportingGpus };

const unknownField = () => NA;

/**
 * `nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits`: one line per reporting
 * GPU, values joined by ", ". Fields nvidia-smi knows but the simulator does not model, and
 * unknown fields, print "[N/A]". `at` only feeds the `timestamp` field.
 */
export function renderQueryGpu(
  host: SimHostSpec,
  samples: readonly SimGpuSample[],
  fields: readonly string[],
  at: Date = new Date(),
): string {
  const values = fields.map((f) => FIELDS[canonicalField(f)] ?? unknownField);
  let out = "";
  for (const { gpu, s } of reportingGpus(host, samples)) {
    const c: FieldContext = { host, gpu, s, model: gpuModel(gpu.name), at };
    out += values.map((v) => v(c)).join(", ") + "\n";
  }
  return out;
}

type AppValue = (gpu: SimGpuSpec, p: SimProcess, at: Date) => string;

const APP_FIELDS: Readonly<Record<string, AppValue>> = {
  timestamp: (_g, _p, at) => timestamp(at),
  gpu_name: (g) => g.name,
  gpu_bus_id: (g) => g.pciBusId,
  gpu_serial: (g) => serialOf(g.uuid),
  // the parent GPU's uuid even under MIG, as the H100 MIG capture shows
  gpu_uuid: (_g, p) => p.gpuUuid,
  pid: (_g, p) => String(p.pid),
  process_name: (_g, p) => p.processName,
  name: (_g, p) => p.processName,
  used_gpu_memory: (_g, p) => String(p.usedMemoryMiB),
  used_memory: (_g, p) => String(p.usedMemoryMiB),
};

/**
 * `nvidia-smi --query-compute-apps=<fields> --format=csv,noheader,nounits`: one line per
 * compute process on a reporting GPU; empty when nothing runs.
 */
export function renderComputeApps(
  host: SimHostSpec,
  samples: readonly SimGpuSample[],
  fields: readonly string[],
  at: Date = new Date(),
): string {
  const values = fields.map((f) => APP_FIELDS[f.trim()] ?? unknownField);
  let out = "";
  for (const { gpu, s } of reportingGpus(host, samples)) {
    for (const p of s.processes) out += values.map((v) => v(gpu, p, at)).join(", ") + "\n";
  }
  return out;
}
