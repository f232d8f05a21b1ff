// Pure parsers for the occasional MIG snapshot: `nvidia-smi -q -x` gives per-instance memory
// (<mig_devices>) and processes; `nvidia-smi -L` gives each MIG device's profile name
// ("MIG 3g.40gb Device 0"), which -q -x does not print.

import type { MigReading, ParseResult, ProcessReading } from "../readings.ts";
import { parseBool, parseInteger, parseNumber, parseText } from "./values.ts";
import { children, child, parseXml, textAt, type XmlElement } from "./xml.ts";

export interface XmlMigDevice {
  index: number;
  gpuInstanceId: number;
  computeInstanceId?: number;
  memoryTotalBytes?: number;
  memoryUsedBytes?: number;
}

export interface XmlGpu {
  index: number;
  uuid: string;
  pciBusId?: string;
  migEnabled?: boolean;
  migDevices: XmlMigDevice[];
  processes: ProcessReading[];
}

function bytes(el: XmlElement | undefined, ...path: string[]): number | undefined {
  const r = parseNumber(textAt(el, ...path) ?? "N/A", "MiB");
  return r.ok ? r.value : undefined;
}

function int(el: XmlElement | undefined, ...path: string[]): number | undefined {
  const r = parseInteger(textAt(el, ...path) ?? "N/A");
  return r.ok ? r.value : undefined;
}

export function parseQueryXml(text: string): ParseResult<XmlGpu> {
  const doc = parseXml(text);
  const log = child(doc, "nvidia_smi_log");
  if (!log) throw new Error("not an nvidia-smi -q -x document (no <nvidia_smi_log>)");
  const items: XmlGpu[] = [];
  const warnings: string[] = [];
  // nvidia-smi lists GPUs in index order, the same order --query-gpu's index counts.
  children(log, "gpu").forEach((gpu, index) => {
    const uuid = parseText(textAt(gpu, "uuid") ?? "");
    if (!uuid) {
      warnings.push(`gpu ${index} has no uuid`);
      return;
    }
    const mig = parseBool(textAt(gpu, "mig_mode", "current_mig") ?? "N/A");
    const migDevices: XmlMigDevice[] = [];
    for (const dev of children(child(gpu, "mig_devices"), "mig_device")) {
      const devIndex = int(dev, "index");
      const gi = int(dev, "gpu_instance_id");
      if (devIndex === undefined || gi === undefined) {
        warnings.push(`gpu ${index}: mig_device without index/gpu_instance_id`);
        continue;
      }
      migDevices.push({
        index: devIndex,
        gpuInstanceId: gi,
        computeInstanceId: int(dev, "compute_instance_id"),
        memoryTotalBytes: bytes(dev, "fb_memory_usage", "total"),
        memoryUsedBytes: bytes(dev, "fb_memory_usage", "used"),
      });
    }
    const processes: ProcessReading[] = [];
    for (const p of children(child(gpu, "processes"), "process_info")) {
      const pid = int(p, "pid");
      if (pid === undefined) continue;
      const proc: ProcessReading = {
        gpuUuid: uuid,
        pid,
        processName: parseText(textAt(p, "process_name") ?? "") ?? "",
      };
      const used = bytes(p, "used_memory");
      if (used !== undefined) proc.usedMemoryBytes = used;
      const gi = int(p, "gpu_instance_id"); // "N/A" outside MIG
      if (gi !== undefined) proc.gpuInstanceId = gi;
      processes.push(proc);
    }
    items.push({
      index,
      uuid,
      pciBusId: gpu.attrs.id,
      migEnabled: mig.ok ? mig.value : undefined,
      migDevices,
      processes,
    });
  });
  return { items, warnings };
}

/** `nvidia-smi -L` → GPU UUID → MIG device index → profile ("1g.20gb"). */
export function parseListGpus(text: string): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  let current: Map<number, string> | undefined;
  for (const line of text.split(/\r?\n/)) {
    const gpu = /^GPU \d+: .*\(UUID: (GPU-[^)\s]+)\)/.exec(line);
    if (gpu?.[1]) {
      current = new Map();
      out.set(gpu[1], current);
      continue;
    }
    const mig = /^\s+MIG\s+(\S+)\s+Device\s+(\d+):/.exec(line);
    if (mig?.[1] && mig[2] && current) current.set(Number(mig[2]), mig[1]);
  }
  return out;
}

/** Join both: one reading per GPU instance (compute instances share their GI's memory). */
export function migReadings(
  gpus: XmlGpu[],
  profiles: Map<string, Map<number, string>>,
): MigReading[] {
  const out: MigReading[] = [];
  for (const gpu of gpus) {
    const seen = new Set<number>();
    for (const dev of gpu.migDevices) {
      if (seen.has(dev.gpuInstanceId)) continue;
      seen.add(dev.gpuInstanceId);
      out.push({
        gpuUuid: gpu.uuid,
        gpuInstanceId: dev.gpuInstanceId,
        profile: profiles.get(gpu.uuid)?.get(dev.index) ?? "unknown",
        memoryTotalBytes: dev.memoryTotalBytes,
        memoryUsedBytes: dev.memoryUsedBytes,
      });
    }
  }
  return out;
}
