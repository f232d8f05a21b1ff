// Contract between the simulator, the exporter's sources and the app's demo seeding.
// The simulator is deterministic: the same seed and time always give the same numbers,
// so the demo can backfill history that matches what the live exporter serves.

export type PricingModel = "on_demand" | "spot" | "reserved";

/** Workload profiles the simulated fleet mixes. */
export type WorkloadProfile =
  | "training" // steady 90-100 % SM, most memory used, one big process
  | "inference" // diurnal: busy in working hours (host region's local time), low at night
  | "held_idle" // memory allocated and a process attached, SM ~0
  | "empty_idle" // no process, no memory, SM 0
  | "mig" // MIG-partitioned A100/H100; per-instance memory, utilization N/A
  | "faulty" // mostly training, but stops reporting for stretches and accrues ECC errors
  | "stuck_loop"; // a hung job busy-waiting: utilization ~100 %, SM active ~0, memory held

export interface SimMigInstance {
  gpuInstanceId: number;
  computeInstanceId: number;
  /** nvidia-smi profile name, e.g. "3g.40gb" */
  profile: string;
  memoryTotalMiB: number;
}

export interface SimGpuSpec {
  index: number;
  uuid: string;
  /** nvidia-smi name, e.g. "NVIDIA A100-SXM4-80GB" */
  name: string;
  memoryTotalMiB: number;
  pciBusId: string;
  powerLimitW: number;
  profile: WorkloadProfile;
  /** present when profile is "mig" */
  mig?: SimMigInstance[];
}

export interface SimHostSpec {
  /** 0-based position in the fleet; also the path index /hosts/<id>/metrics */
  id: number;
  hostname: string;
  provider: string; // aws | gcp | azure | alibaba | tencent | onprem
  instanceType: string;
  region: string;
  pricingModel: PricingModel;
  team: string;
  project: string;
  /** the cloud's instance id as its metadata service reports it (none on-prem): the id a cloud
   * bill names the instance by (issue 26's reconciliation matches on it) */
  instanceId?: string;
  /** the availability zone, where the design names one (gpu_host_info's zone) */
  zone?: string;
  /** extra gpu_host_info labels, e.g. owner, interruptible */
  labels: Record<string, string>;
  driverVersion: string;
  gpus: SimGpuSpec[];
}

export interface SimFleet {
  seed: number;
  hosts: SimHostSpec[];
}

export interface SimProcess {
  pid: number;
  processName: string;
  usedMemoryMiB: number;
  gpuUuid: string;
}

/** DCGM profiling fields at an instant (datacenter models, not under MIG). */
export interface SimProfiling {
  /** ratios 0-1 */
  smActive: number;
  smOccupancy: number;
  tensorActive: number;
  dramActive: number;
  grEngineActive: number;
  /** bytes per second */
  pcieTxBytesPerSecond: number;
  pcieRxBytesPerSecond: number;
  /** NVLink parts only; 0 when the host has no NVLink peer */
  nvlinkTxBytesPerSecond?: number;
  nvlinkRxBytesPerSecond?: number;
}

/** One GPU's state at an instant, as nvidia-smi would report it. */
export interface SimGpuSample {
  /** false while a "faulty" GPU has dropped off the bus: no line is printed for it */
  reporting: boolean;
  /** 0-100, null where the driver says [N/A] (MIG mode) */
  utilizationGpu: number | null;
  utilizationMemory: number | null;
  memoryUsedMiB: number;
  temperatureC: number;
  powerDrawW: number;
  smClockMHz: number;
  memClockMHz: number;
  fanSpeedPct: number | null;
  pstate: number;
  eccCorrected: number;
  eccUncorrected: number;
  processes: SimProcess[];
  /** per MIG instance memory used, keyed by gpuInstanceId */
  migMemoryUsedMiB?: Record<number, number>;
  /** what DCGM's profiling would add; absent where the model or MIG mode has none */
  profiling?: SimProfiling;
}
