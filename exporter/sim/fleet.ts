// Builds the simulated fleet: 24 hand-designed demo hosts, then seeded random hosts (mostly
// 8-GPU training/inference boxes) so 1,000 hosts give a benchmark-sized ~8,000 GPUs.
import { instanceType, regionCode, type InstanceType } from "./catalogue.ts";
import { DEMO_HOSTS, PROFILE_CODES, type HostDesign } from "./demo-hosts.ts";
import { gpuModel, type GpuModel } from "./gpu-models.ts";
import { randomDesign } from "./random-hosts.ts";
import { hash, mulberry32 } from "./rand.ts";
import type {
  SimFleet,
  SimGpuSpec,
  SimHostSpec,
  SimMigInstance,
  WorkloadProfile,
} from "./types.ts";

export const DEFAULT_DRIVER_VERSION = "590.48.01";

export interface BuildFleetOptions {
  seed: number;
  hosts: number;
  /** benchmarks: give every host this many GPUs (the profile pattern repeats) */
  gpusPerHost?: number;
}

export function buildFleet(opts: BuildFleetOptions): SimFleet {
  const count = Math.max(0, Math.floor(opts.hosts));
  const perHost = opts.gpusPerHost;
  const hosts: SimHostSpec[] = [];
  for (let id = 0; id < count; id++) {
    const design = DEMO_HOSTS[id] ?? randomDesign(opts.seed, id);
    hosts.push(buildHost(opts.seed, id, design, perHost));
  }
  return { seed: opts.seed, hosts };
}

function buildHost(
  seed: number,
  id: number,
  design: HostDesign,
  gpusPerHost?: number,
): SimHostSpec {
  const type = instanceType(design.instanceType);
  const model = gpuModel(type.gpuName);
  const n = gpusPerHost !== undefined && gpusPerHost > 0 ? Math.floor(gpusPerHost) : type.gpus;
  const gpus: SimGpuSpec[] = [];
  for (let index = 0; index < n; index++) {
    const code = design.profiles[index % design.profiles.length] ?? "T";
    const profile: WorkloadProfile = PROFILE_CODES[code] ?? "training";
    const gpu: SimGpuSpec = {
      index,
      uuid: gpuUuid(seed, id, index),
      name: model.name,
      memoryTotalMiB: model.memory.totalMiB,
      pciBusId: pciBusId(type, n, index),
      powerLimitW: model.power.limitW,
      profile,
    };
    if (profile === "mig") gpu.mig = migLayout(model, hash(seed, id, 0x3196) + index);
    gpus.push(gpu);
  }
  const labels: Record<string, string> = {
    owner: `${design.owner}@example.com`,
    ...design.labels,
  };
  if (design.interruptible) labels.interruptible = "true";
  const cloudId = simInstanceId(seed, id, type.provider);
  return {
    id,
    hostname: `gpu-${type.provider}-${regionCode(design.region)}-${String(id + 1).padStart(3, "0")}`,
    ...(cloudId ? { instanceId: cloudId } : {}),
    ...(design.zone ? { zone: design.zone } : {}),
    provider: type.provider,
    instanceType: type.instanceType,
    region: design.region,
    pricingModel: design.pricingModel,
    team: design.team,
    project: design.project,
    labels,
    driverVersion: design.driverVersion ?? DEFAULT_DRIVER_VERSION,
    gpus,
  };
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

/**
 * The instance id each cloud's metadata service would report, from the seeded PRNG: AWS and
 * Alibaba "i-…", GCP a 19-digit number, Azure the vmId GUID, Tencent "ins-…"; none on-prem.
 */
export function simInstanceId(seed: number, hostId: number, provider: string): string | undefined {
  const rnd = mulberry32(hash(seed, hostId, 0x1d5));
  const w = () => hex(Math.floor(rnd() * 4294967296), 8);
  switch (provider) {
    case "aws":
      return `i-0${w()}${w().slice(0, 8)}`.slice(0, 19);
    case "gcp":
      return `${1 + Math.floor(rnd() * 8)}${String(Math.floor(rnd() * 1e9)).padStart(9, "0")}${String(Math.floor(rnd() * 1e9)).padStart(9, "0")}`;
    case "azure": {
      const [a, b, c, d] = [w(), w(), w(), w()];
      return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
    }
    case "alibaba":
      return `i-uf6${w()}${w().slice(0, 9)}`;
    case "tencent":
      return `ins-${w()}`;
    default:
      return undefined;
  }
}

/** GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx from the seeded PRNG */
export function gpuUuid(seed: number, hostId: number, index: number): string {
  const rnd = mulberry32(hash(seed, hostId, index, 0x00d1d));
  const w = () => hex(Math.floor(rnd() * 4294967296), 8);
  const [a, b, c, d] = [w(), w(), w(), w()];
  return `GPU-${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}

// Bus ids as these machines really enumerate them (p4d, p5, a3, DGX A100, Hyper-V domains).
const P5_BUSES = ["53:00", "64:00", "75:00", "86:00", "97:00", "A8:00", "B9:00", "CA:00"];
const BUSES_8: Readonly<Record<string, readonly string[]>> = {
  "p4d.24xlarge": ["10:1C", "10:1D", "20:1C", "20:1D", "90:1C", "90:1D", "A0:1C", "A0:1D"],
  "p5.48xlarge": P5_BUSES,
  "p5en.48xlarge": P5_BUSES,
  "a3-highgpu-8g": ["04:00", "05:00", "0A:00", "0B:00", "84:00", "85:00", "8A:00", "8B:00"],
  "dgx-a100": ["07:00", "0F:00", "47:00", "4E:00", "87:00", "90:00", "B7:00", "BD:00"],
};
const BUS_1: Readonly<Record<string, string>> = {
  aws: "00000000:00:1E.0",
  gcp: "00000000:00:04.0",
  azure: "00000001:00:00.0",
  alibaba: "00000000:00:07.0",
};

export function pciBusId(type: InstanceType, gpus: number, index: number): string {
  if (gpus === 1) return BUS_1[type.provider] ?? "00000000:01:00.0";
  if (type.provider === "azure") return `${hex(index + 1, 8).toUpperCase()}:00:00.0`;
  const known = gpus <= 8 ? BUSES_8[type.instanceType]?.[index] : undefined;
  if (known) return `00000000:${known}.0`;
  const bus = 0x10 + index;
  return `${hex(Math.floor(bus / 256), 8)}:${hex(bus % 256, 2).toUpperCase()}:00.0`;
}

type Layout = readonly (readonly [number, string])[];
// (gpu_instance_id, profile) placements as `nvidia-smi mig -lgi` lists them; each fills the GPU
const MIG_LAYOUTS: readonly Layout[] = [
  [
    [2, "3g.40gb"],
    [3, "2g.20gb"],
    [9, "1g.10gb"],
    [10, "1g.10gb"],
  ],
  [
    [1, "4g.40gb"],
    [2, "3g.40gb"],
  ],
  [7, 8, 9, 10, 11, 12, 13].map((gi) => [gi, "1g.10gb"] as const),
];

function migLayout(model: GpuModel, h: number): SimMigInstance[] {
  const layout = MIG_LAYOUTS[h % MIG_LAYOUTS.length] ?? [];
  return layout.map(([gpuInstanceId, profile]) => ({
    gpuInstanceId,
    computeInstanceId: 0,
    profile,
    memoryTotalMiB: model.migProfiles?.[profile] ?? Math.floor(model.memory.totalMiB / 8),
  }));
}
