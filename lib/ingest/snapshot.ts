import { migKey } from "../core/mig.ts";
import type { Sample } from "./exposition.ts";
import type { ProcessInfo } from "../metrics/source.ts";
import { holderFromLabels } from "../core/holders.ts";
import {
  ATTRIBUTION_LABELS,
  HOST_FACT_LABELS,
  HOST_INFO_LABELS,
  METRIC as M,
} from "../../exporter/contract.ts";

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
  /** availability zone and the cloud's instance id (cloud metadata); null when not reported */
  zone: string | null;
  instanceId: string | null;
  /** every other gpu_host_info label */
  labels: Record<string, string>;
}

export interface GpuReading {
  uuid: string;
  index: number;
  name: string;
  migMode: boolean;
  /** gpu_info's virtualization_mode (None, Pass-Through, VGPU, Host VGPU); null when absent */
  virtualizationMode?: string | null;
  /** gpu_vgpu_licensed (vGPU guests) */
  vgpuLicensed?: boolean;
  util: number | null;
  memUtil: number | null;
  memUsedBytes: number | null;
  memTotalBytes: number | null;
  powerWatts: number | null;
  tempCelsius: number | null;
  smClockHz: number | null;
  processes: number | null;
  /** DCGM profiling ratios, where the exporter has them */
  smActive?: number | null;
  tensorActive?: number | null;
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
  /** spot reclaim notice: null when the exporter serves none (not spot, or not announced) */
  interruption: Interruption | null;
}

export interface Interruption {
  pending: boolean;
  /** announced reclaim time, epoch ms; null when not pending or no time given */
  at: number | null;
}

/** Reads gpu_host_interruption_*: pending with a time of 0 (or none) has no known time. */
export function interruptionFrom(
  pending: number | null,
  timeS: number | null,
): Interruption | null {
  if (pending === null || !Number.isFinite(pending)) return null;
  const on = pending >= 1;
  const at = on && timeS !== null && Number.isFinite(timeS) && timeS > 0 ? timeS * 1000 : null;
  return { pending: on, at };
}

const INFO_KEYS = new Set<string>(HOST_INFO_LABELS);
const ATTRIBUTION = new Set<string>(ATTRIBUTION_LABELS);
const FACTS = new Set<string>(HOST_FACT_LABELS);

function hostInfoFrom(labels: Record<string, string>): HostInfo {
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) {
    if (!INFO_KEYS.has(k) && !ATTRIBUTION.has(k) && !FACTS.has(k)) extra[k] = v;
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
    zone: labels.zone || null,
    instanceId: labels.instance_id || null,
    labels: extra,
  };
}

const GPU_FIELDS: Record<string, keyof GpuReading> = {
  [M.util]: "util",
  [M.memUtil]: "memUtil",
  [M.memUsed]: "memUsedBytes",
  [M.memTotal]: "memTotalBytes",
  [M.power]: "powerWatts",
  [M.temp]: "tempCelsius",
  [M.smClock]: "smClockHz",
  [M.processes]: "processes",
  [M.smActive]: "smActive",
  [M.tensorActive]: "tensorActive",
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
  let pending: number | null = null;
  let interruptionS: number | null = null;
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
    if (name === M.hostInfo) {
      info = hostInfoFrom(labels);
    } else if (name === M.collectorSuccess) {
      if (value === 0 && labels.collector !== "host") sourceOk = false;
    } else if (name === M.gpuInfo) {
      const g = gpuFor(labels);
      if (g) {
        g.name = labels.name ?? "";
        g.migMode = (labels.mig_mode ?? "").toLowerCase() === "enabled";
        g.virtualizationMode = labels.virtualization_mode || null;
      }
    } else if (name === M.interruptionPending) {
      pending = value;
    } else if (name === M.interruptionTime) {
      interruptionS = value;
    } else if (name === M.vgpuLicensed) {
      const g = gpuFor(labels);
      if (g && Number.isFinite(value)) g.vgpuLicensed = value === 1;
    } else if (name in GPU_FIELDS && labels.gpu_instance_id === undefined) {
      const g = gpuFor(labels);
      const field = GPU_FIELDS[name];
      if (g && field && Number.isFinite(value)) (g[field] as number | null) = value;
    } else if (name === M.ecc && labels.gpu_instance_id === undefined) {
      const g = gpuFor(labels);
      if (g && Number.isFinite(value)) {
        if (labels.type === "uncorrected") g.eccUncorrected = value;
        else if (labels.type === "corrected") g.eccCorrected = value;
      }
    } else if (name === M.clockEvent && labels.reason) {
      const g = gpuFor(labels);
      if (g) g.clockEvents = { ...g.clockEvents, [labels.reason]: value === 1 };
    } else if (name === M.migMemUsed || name === M.migMemTotal) {
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
      if (name === M.migMemUsed) m.memUsedBytes = value;
      else m.memTotalBytes = value;
      migs.set(key, m);
    } else if (name === M.processMemory) {
      const pid = Number(labels.pid);
      const gi = labels.gpu_instance_id === undefined ? NaN : Number(labels.gpu_instance_id);
      if (labels.uuid && Number.isInteger(pid)) {
        processes.push({
          gpuUuid: labels.uuid,
          pid,
          processName: labels.process_name ?? "",
          usedMemoryBytes: value,
          holder: holderFromLabels(labels),
          ...(Number.isInteger(gi) ? { gpuInstanceId: gi } : {}),
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
    interruption: interruptionFrom(pending, interruptionS),
  };
}
