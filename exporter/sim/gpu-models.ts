// GPU models as nvidia-smi describes them: names, memory, power and clock envelopes,
// identifiers. Values follow real boards (captures in exporter/test/fixtures/captures where we have them).

export type Arch = "Turing" | "Volta" | "Ampere" | "Ada Lovelace" | "Hopper";

export interface GpuModel {
  name: string;
  arch: Arch;
  memory: { totalMiB: number; reservedMiB: number; hbm: boolean };
  /** idleW: board power when nothing runs */
  power: { limitW: number; minW: number; idleW: number };
  clocks: {
    smMax: number;
    smIdle: number;
    memMax: number;
    memIdle: number;
    videoMax: number;
    videoIdle: number;
  };
  /** 8 for PCIe boards that clock down when idle; SXM parts stay in P0 */
  idlePstate: number;
  /** degrees above ambient at full load */
  tempRiseC: number;
  /** null: passively cooled, nvidia-smi prints [N/A] */
  fanPct: number | null;
  pcieGen: number;
  computeCap: string;
  pci: { deviceId: string; subDeviceId: string };
  vbios: string;
  inforom: { img: string; oem: string; ecc: string };
  /** remapped_rows.histogram.max; null on parts that retire pages instead (Turing, Volta) */
  remapHistogramMax: number | null;
  /** MIG GPU-instance profiles and their memory in MiB, on MIG-capable parts */
  migProfiles?: Record<string, number>;
  /** DCGM profiling (DCP) fields available: datacenter parts; GeForce boards have none */
  profiling: boolean;
  /** NVLink bandwidth per direction in GB/s on SXM parts; null on PCIe-only boards */
  nvlinkGBps: number | null;
}

export const GPU_MODELS: readonly GpuModel[] = [
  {
    name: "Tesla T4",
    arch: "Turing",
    memory: { totalMiB: 15360, reservedMiB: 251, hbm: false },
    power: { limitW: 70, minW: 60, idleW: 9.2 },
    clocks: {
      smMax: 1590,
      smIdle: 300,
      memMax: 5000,
      memIdle: 405,
      videoMax: 1470,
      videoIdle: 540,
    },
    idlePstate: 8,
    tempRiseC: 40,
    fanPct: null,
    pcieGen: 3,
    computeCap: "7.5",
    pci: { deviceId: "0x1EB810DE", subDeviceId: "0x12A210DE" },
    vbios: "90.04.96.00.02",
    inforom: { img: "G183.0200.00.02", oem: "1.1", ecc: "5.0" },
    remapHistogramMax: null,
    profiling: true,
    nvlinkGBps: null,
  },
  {
    name: "NVIDIA A10G",
    arch: "Ampere",
    memory: { totalMiB: 23028, reservedMiB: 465, hbm: false },
    power: { limitW: 300, minW: 100, idleW: 17.5 },
    clocks: {
      smMax: 1710,
      smIdle: 210,
      memMax: 6251,
      memIdle: 405,
      videoMax: 1500,
      videoIdle: 555,
    },
    idlePstate: 8,
    tempRiseC: 36,
    fanPct: 0,
    pcieGen: 4,
    computeCap: "8.6",
    pci: { deviceId: "0x223710DE", subDeviceId: "0x152F10DE" },
    vbios: "94.02.75.00.01",
    inforom: { img: "G133.0210.00.04", oem: "2.0", ecc: "6.16" },
    remapHistogramMax: 192,
    profiling: true,
    nvlinkGBps: null,
  },
  {
    name: "NVIDIA L4",
    arch: "Ada Lovelace",
    memory: { totalMiB: 23034, reservedMiB: 447, hbm: false },
    power: { limitW: 72, minW: 40, idleW: 13.1 },
    clocks: {
      smMax: 2040,
      smIdle: 210,
      memMax: 6251,
      memIdle: 405,
      videoMax: 1770,
      videoIdle: 795,
    },
    idlePstate: 8,
    tempRiseC: 42,
    fanPct: null,
    pcieGen: 4,
    computeCap: "8.9",
    pci: { deviceId: "0x27B810DE", subDeviceId: "0x16CA10DE" },
    vbios: "95.04.29.00.06",
    inforom: { img: "G193.0200.00.01", oem: "2.1", ecc: "6.16" },
    remapHistogramMax: 192,
    profiling: true,
    nvlinkGBps: null,
  },
  {
    name: "Tesla V100-SXM2-16GB",
    arch: "Volta",
    memory: { totalMiB: 16384, reservedMiB: 356, hbm: true },
    power: { limitW: 300, minW: 150, idleW: 41.3 },
    clocks: { smMax: 1530, smIdle: 135, memMax: 877, memIdle: 877, videoMax: 1372, videoIdle: 555 },
    idlePstate: 0,
    tempRiseC: 28,
    fanPct: null,
    pcieGen: 3,
    computeCap: "7.0",
    pci: { deviceId: "0x1DB110DE", subDeviceId: "0x124910DE" },
    vbios: "88.00.4F.00.09",
    inforom: { img: "G503.0203.00.04", oem: "1.1", ecc: "5.0" },
    remapHistogramMax: null,
    profiling: true,
    nvlinkGBps: 150,
  },
  {
    name: "NVIDIA A100-SXM4-40GB",
    arch: "Ampere",
    memory: { totalMiB: 40960, reservedMiB: 424, hbm: true },
    power: { limitW: 400, minW: 100, idleW: 52.4 },
    clocks: {
      smMax: 1410,
      smIdle: 210,
      memMax: 1215,
      memIdle: 1215,
      videoMax: 1290,
      videoIdle: 795,
    },
    idlePstate: 0,
    tempRiseC: 30,
    fanPct: null,
    pcieGen: 4,
    computeCap: "8.0",
    pci: { deviceId: "0x20B010DE", subDeviceId: "0x134F10DE" },
    vbios: "92.00.19.00.10",
    inforom: { img: "G506.0202.00.02", oem: "2.0", ecc: "6.16" },
    remapHistogramMax: 640,
    profiling: true,
    nvlinkGBps: 300,
    migProfiles: { "1g.5gb": 4864, "2g.10gb": 9984, "3g.20gb": 19968, "7g.40gb": 40192 },
  },
  {
    name: "NVIDIA A100-SXM4-80GB",
    arch: "Ampere",
    memory: { totalMiB: 81920, reservedMiB: 869, hbm: true },
    power: { limitW: 400, minW: 100, idleW: 61.8 },
    clocks: {
      smMax: 1410,
      smIdle: 210,
      memMax: 1593,
      memIdle: 1593,
      videoMax: 1290,
      videoIdle: 795,
    },
    idlePstate: 0,
    tempRiseC: 30,
    fanPct: null,
    pcieGen: 4,
    computeCap: "8.0",
    pci: { deviceId: "0x20B210DE", subDeviceId: "0x147F10DE" },
    vbios: "92.00.36.00.02",
    inforom: { img: "G506.0212.00.01", oem: "2.0", ecc: "6.16" },
    remapHistogramMax: 2560,
    profiling: true,
    nvlinkGBps: 300,
    migProfiles: { "1g.10gb": 9728, "2g.20gb": 19968, "3g.40gb": 40192, "4g.40gb": 40192 },
  },
  {
    name: "NVIDIA H100 80GB HBM3",
    arch: "Hopper",
    memory: { totalMiB: 81559, reservedMiB: 479, hbm: true },
    power: { limitW: 700, minW: 200, idleW: 82.5 },
    clocks: {
      smMax: 1980,
      smIdle: 345,
      memMax: 2619,
      memIdle: 2619,
      videoMax: 1545,
      videoIdle: 765,
    },
    idlePstate: 0,
    tempRiseC: 30,
    fanPct: null,
    pcieGen: 5,
    computeCap: "9.0",
    pci: { deviceId: "0x233010DE", subDeviceId: "0x16C110DE" },
    vbios: "96.00.A5.00.01",
    inforom: { img: "G520.0200.00.05", oem: "2.1", ecc: "7.16" },
    remapHistogramMax: 2560,
    profiling: true,
    nvlinkGBps: 450,
    migProfiles: { "1g.10gb": 9984, "2g.20gb": 20224, "3g.40gb": 40192, "4g.40gb": 40192 },
  },
  {
    name: "NVIDIA H200",
    arch: "Hopper",
    memory: { totalMiB: 143771, reservedMiB: 614, hbm: true },
    power: { limitW: 700, minW: 200, idleW: 86.2 },
    clocks: {
      smMax: 1980,
      smIdle: 345,
      memMax: 3201,
      memIdle: 3201,
      videoMax: 1545,
      videoIdle: 765,
    },
    idlePstate: 0,
    tempRiseC: 26,
    fanPct: null,
    pcieGen: 5,
    computeCap: "9.0",
    pci: { deviceId: "0x233510DE", subDeviceId: "0x18BE10DE" },
    vbios: "96.00.A5.00.03",
    inforom: { img: "G520.0280.02.02", oem: "2.1", ecc: "7.16" },
    remapHistogramMax: 3072,
    profiling: true,
    nvlinkGBps: 450,
  },
];

const MODEL_BY_NAME = new Map(GPU_MODELS.map((m) => [m.name, m]));

export function gpuModel(name: string): GpuModel {
  const model = MODEL_BY_NAME.get(name);
  if (!model) throw new Error(`unknown simulated GPU model: ${name}`);
  return model;
}

const SMS_AMPERE: Record<string, number> = { "1g": 14, "2g": 28, "3g": 42, "4g": 56, "7g": 98 };
const SMS_HOPPER: Record<string, number> = { "1g": 16, "2g": 32, "3g": 60, "4g": 64, "7g": 132 };

/** streaming multiprocessors of a MIG instance, as `nvidia-smi -q -x` reports them */
export function migMultiprocessors(model: GpuModel, profile: string): number {
  const slices = profile.split(".")[0] ?? "1g";
  return (model.arch === "Hopper" ? SMS_HOPPER : SMS_AMPERE)[slices] ?? 14;
}
