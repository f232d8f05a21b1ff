import type { Sample } from "./exposition.ts";
import type { ProcessInfo } from "./source.ts";

// What one scrape of an exporter says about its host, in the metric contract's terms.

export interface HostInfo {
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string | null;
  project: string | null;
  owner: string | null;
  /** every other gpu_host_info label */
  labels: Record<string, string>;
}

export interface GpuReading {
  uuid: string;
  index: number;
  name: string;
  migMode: boolean;
  util: number | null;
  memUtil: number | null;
  memUsedBytes: number | null;
  memTotalBytes: number | null;
  powerWatts: number | null;
  tempCelsius: number | null;
  smClockHz: number | null;
  processes: number | null;
  /** gpu_ecc_errors_total by type; absent when the exporter does not report ECC */
  eccCorrected?: number;
  eccUncorrected?: number;
  /** gpu_clock_event_active by reason (true = holding clocks down) */
  clockEvents?: Record<string, boolean>;
}

export interface MigReading {
  /** `${parentUuid}:gi${gpuInstanceId}`: the slice's key in the store and ledger */
  key: string;
  parentUuid: string;
  gpuInstanceId: number;
  profile: string;
  memUsedBytes: number | null;
  memTotalBytes: number | null;
}

export interface HostSnapshot {
  info: HostInfo | null;
  gpus: GpuReading[];
  migs: MigReading[];
  processes: ProcessInfo[];
  /** false when the exporter says its GPU source failed (it still answered) */
  sourceOk: boolean;
}

const INFO_KEYS = new Set(["hostname", "provider", "instance_type", "region", "pricing_model"]);
const ATTRIBUTION = new Set(["team", "project", "owner"]);

export function migKey(parentUuid: string, gpuInstanceId: number): string {
  return `${parentUuid}:gi${gpuInstanceId}`;
}

function hostInfoFrom(labels: Record<string, string>): HostInfo {
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) {
    if (!INFO_KEYS.has(k) && !ATTRIBUTION.has(k)) extra[k] = v;
  }
  return {
    hostname: labels.hostname ?? "",
    provider: labels.provider || "unknown",
    instanceType: labels.instance_type || "unknown",
    region: labels.region || "unknown",
    pricingModel: labels.pricing_model || "on_demand",
    team: labels.team || null,
    project: labels.project || null,
    owner: labels.owner || null,
    labels: extra,
  };
}

const GPU_FIELDS: Record<string, keyof GpuReading> = {
  gpu_utilization_ratio: "util",
  gpu_memory_utilization_ratio: "memUtil",
  gpu_memory_used_bytes: "memUsedBytes",
  gpu_memory_total_bytes: "memTotalBytes",
  gpu_power_draw_watts: "powerWatts",
  gpu_temperature_celsius: "tempCelsius",
  gpu_sm_clock_hertz: "smClockHz",
  gpu_processes: "processes",
};

function emptyGpu(uuid: string, index: number): GpuReading {
  return {
    uuid,
    index,
    name: "",
    migMode: false,
    util: null,
    memUtil: null,
    memUsedBytes: null,
    memTotalBytes: null,
    powerWatts: null,
    tempCelsius: null,
    smClockHz: null,
    processes: null,
  };
}

export function snapshotFromSamples(samples: Sample[]): HostSnapshot {
  let info: HostInfo | null = null;
  const gpus = new Map<string, GpuReading>();
  const migs = new Map<string, MigReading>();
  const processes: ProcessInfo[] = [];
  let sourceOk = true;
  const gpuFor = (labels: Record<string, string>): GpuReading | null => {
    const uuid = labels.uuid;
    if (!uuid) return null;
    let g = gpus.get(uuid);
    if (!g) {
      g = emptyGpu(uuid, Number(labels.gpu ?? 0));
      gpus.set(uuid, g);
    }
    return g;
  };

  for (const s of samples) {
    const { name, labels, value } = s;
    if (name === "gpu_host_info") {
      info = hostInfoFrom(labels);
    } else if (name === "gpu_exporter_collector_success") {
      if (value === 0 && labels.collector !== "host") sourceOk = false;
    } else if (name === "gpu_info") {
      const g = gpuFor(labels);
      if (g) {
        g.name = labels.name ?? "";
        g.migMode = (labels.mig_mode ?? "").toLowerCase() === "enabled";
      }
    } else if (name in GPU_FIELDS && labels.gpu_instance_id === undefined) {
      const g = gpuFor(labels);
      const field = GPU_FIELDS[name];
      if (g && field && Number.isFinite(value)) (g[field] as number | null) = value;
    } else if (name === "gpu_ecc_errors_total" && labels.gpu_instance_id === undefined) {
      const g = gpuFor(labels);
      if (g && Number.isFinite(value)) {
        if (labels.type === "uncorrected") g.eccUncorrected = value;
        else if (labels.type === "corrected") g.eccCorrected = value;
      }
    } else if (name === "gpu_clock_event_active" && labels.reason) {
      const g = gpuFor(labels);
      if (g) g.clockEvents = { ...g.clockEvents, [labels.reason]: value === 1 };
    } else if (name === "gpu_mig_memory_used_bytes" || name === "gpu_mig_memory_total_bytes") {
      const parent = labels.uuid;
      const gi = Number(labels.gpu_instance_id);
      if (!parent || !Number.isInteger(gi)) continue;
      const key = migKey(parent, gi);
      const m = migs.get(key) ?? {
        key,
        parentUuid: parent,
        gpuInstanceId: gi,
        profile: labels.mig_profile ?? "",
        memUsedBytes: null,
        memTotalBytes: null,
      };
      if (name === "gpu_mig_memory_used_bytes") m.memUsedBytes = value;
      else m.memTotalBytes = value;
      migs.set(key, m);
    } else if (name === "gpu_process_memory_used_bytes") {
      const pid = Number(labels.pid);
      if (labels.uuid && Number.isInteger(pid)) {
        processes.push({
          gpuUuid: labels.uuid,
          pid,
          processName: labels.process_name ?? "",
          usedMemoryBytes: value,
        });
      }
    }
  }
  return {
    info,
    gpus: [...gpus.values()].sort((a, b) => a.index - b.index),
    migs: [...migs.values()],
    processes,
    sourceOk,
  };
}

/**
 * nvidia-smi does not attribute compute processes to MIG slices, so a slice holding more than a
 * context's worth of memory counts as having one process (used by the ledger's idle rule).
 */
export function migProcesses(memUsedBytes: number | null): number {
  return memUsedBytes !== null && memUsedBytes > 64 * 1024 * 1024 ? 1 : 0;
}

/** A MIG profile's share of its GPU: "3g.40gb" is 3 of the 7 compute slices of an A100/H100. */
export function migFraction(profile: string | null): number | undefined {
  const m = /^(\d+)g\./.exec(profile ?? "");
  return m ? Number(m[1]) / 7 : undefined;
}
