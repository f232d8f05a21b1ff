// What GPUs an instance type carries where the price list does not say. Memory is nominal per
// GPU in GiB, as the shipped catalogue writes it (lib/pricing/catalogue.ts); model names follow the
// catalogue too. A type missing here is skipped and named in the import's report, never guessed.

export interface GpuSpec {
  gpuModel: string;
  gpuMemoryGiB: number;
}

export interface GpuSpecWithCount extends GpuSpec {
  gpuCount: number;
}

const spec = (gpuModel: string, gpuMemoryGiB: number): GpuSpec => ({ gpuModel, gpuMemoryGiB });

/**
 * AWS GPU families (the part of the instance type before the dot). The offer file gives the GPU
 * count (attribute `gpu`) but not the model. Source: AWS "Accelerated computing" instance type
 * pages, https://aws.amazon.com/ec2/instance-types/ (P2–P6, G3–G6e, Gr6), read 2026-11.
 */
export const AWS_GPU_FAMILIES: Readonly<Record<string, GpuSpec>> = {
  p2: spec("K80", 12),
  p3: spec("V100-16GB", 16),
  p3dn: spec("V100-32GB", 32),
  p4d: spec("A100-40GB", 40),
  p4de: spec("A100-80GB", 80),
  p5: spec("H100-80GB", 80),
  p5e: spec("H200-141GB", 141),
  p5en: spec("H200-141GB", 141),
  "p6-b200": spec("B200-180GB", 180),
  g3: spec("M60", 8),
  g3s: spec("M60", 8),
  g4dn: spec("T4", 16),
  g4ad: spec("Radeon-Pro-V520", 8),
  g5: spec("A10G", 24),
  g5g: spec("T4G", 16),
  g6: spec("L4", 24),
  g6e: spec("L40S", 48),
  gr6: spec("L4", 24),
};

/** "p4d.24xlarge" -> "p4d"; "p6-b200.48xlarge" -> "p6-b200". */
export function awsFamily(instanceType: string): string {
  const dot = instanceType.indexOf(".");
  return dot < 0 ? instanceType : instanceType.slice(0, dot);
}

const az = (gpuModel: string, gpuCount: number, gpuMemoryGiB: number): GpuSpecWithCount => ({
  gpuModel,
  gpuCount,
  gpuMemoryGiB,
});

/**
 * Azure GPU sizes by ARM SKU name: the Retail Prices API names the size, not its GPUs. Only
 * whole-GPU sizes (fractional NVads A10 v5 sizes share a GPU and are left out). Source: Microsoft
 * Learn, "GPU accelerated VM sizes" (NCasT4_v3, NCv3, NC A100 v4, NCads H100 v5, NDv2, ND A100 v4,
 * NDm A100 v4, ND H100 v5, ND H200 v5, NVadsA10 v5 series pages),
 * https://learn.microsoft.com/azure/virtual-machines/sizes/overview#gpu-accelerated, read 2026-11.
 */
export const AZURE_GPU_SIZES: Readonly<Record<string, GpuSpecWithCount>> = {
  standard_nc4as_t4_v3: az("T4", 1, 16),
  standard_nc8as_t4_v3: az("T4", 1, 16),
  standard_nc16as_t4_v3: az("T4", 1, 16),
  standard_nc64as_t4_v3: az("T4", 4, 16),
  standard_nc6s_v3: az("V100-16GB", 1, 16),
  standard_nc12s_v3: az("V100-16GB", 2, 16),
  standard_nc24s_v3: az("V100-16GB", 4, 16),
  standard_nc24rs_v3: az("V100-16GB", 4, 16),
  standard_nc24ads_a100_v4: az("A100-80GB", 1, 80),
  standard_nc48ads_a100_v4: az("A100-80GB", 2, 80),
  standard_nc96ads_a100_v4: az("A100-80GB", 4, 80),
  standard_nc40ads_h100_v5: az("H100-94GB", 1, 94),
  standard_nc80adis_h100_v5: az("H100-94GB", 2, 94),
  standard_nd40rs_v2: az("V100-32GB", 8, 32),
  standard_nd96asr_v4: az("A100-40GB", 8, 40),
  standard_nd96amsr_a100_v4: az("A100-80GB", 8, 80),
  standard_nd96isr_h100_v5: az("H100-80GB", 8, 80),
  standard_nd96isr_h200_v5: az("H200-141GB", 8, 141),
  standard_nv36ads_a10_v5: az("A10", 1, 24),
  standard_nv72ads_a10_v5: az("A10", 2, 24),
};

export interface GcpMachine {
  vcpus: number;
  /** memory in GiB as the machine type lists it; priced per GiB-hour */
  memoryGiB: number;
  gpuCount: number;
  /** the GPU SKU's description without region, e.g. "Nvidia Tesla A100 GPU" */
  gpuSku: string;
  /** "A2": the family's core and RAM SKUs are "A2 Instance Core" and "A2 Instance Ram" */
  family: string;
  gpu: GpuSpec;
}

const A100_40 = spec("A100-40GB", 40);
const A100_80 = spec("A100-80GB", 80);
const L4 = spec("L4", 24);
const H100 = spec("H100-80GB", 80);
const a2 = (vcpus: number, memoryGiB: number, gpuCount: number): GcpMachine => ({
  vcpus,
  memoryGiB,
  gpuCount,
  gpuSku: "Nvidia Tesla A100 GPU",
  family: "A2",
  gpu: A100_40,
});
const a2u = (vcpus: number, memoryGiB: number, gpuCount: number): GcpMachine => ({
  vcpus,
  memoryGiB,
  gpuCount,
  gpuSku: "Nvidia Tesla A100 80GB GPU",
  family: "A2",
  gpu: A100_80,
});
const g2 = (vcpus: number, memoryGiB: number, gpuCount: number): GcpMachine => ({
  vcpus,
  memoryGiB,
  gpuCount,
  gpuSku: "Nvidia L4 GPU",
  family: "G2",
  gpu: L4,
});

/**
 * Google Cloud machine types that carry their GPUs (vCPUs, memory, GPUs). Source: "GPU machine
 * types", https://cloud.google.com/compute/docs/gpus and "Accelerator-optimized machine family",
 * https://cloud.google.com/compute/docs/accelerator-optimized-machines, read 2026-11.
 */
export const GCP_GPU_MACHINES: Readonly<Record<string, GcpMachine>> = {
  "a2-highgpu-1g": a2(12, 85, 1),
  "a2-highgpu-2g": a2(24, 170, 2),
  "a2-highgpu-4g": a2(48, 340, 4),
  "a2-highgpu-8g": a2(96, 680, 8),
  "a2-megagpu-16g": a2(96, 1360, 16),
  "a2-ultragpu-1g": a2u(12, 170, 1),
  "a2-ultragpu-2g": a2u(24, 340, 2),
  "a2-ultragpu-4g": a2u(48, 680, 4),
  "a2-ultragpu-8g": a2u(96, 1360, 8),
  "g2-standard-4": g2(4, 16, 1),
  "g2-standard-8": g2(8, 32, 1),
  "g2-standard-12": g2(12, 48, 1),
  "g2-standard-16": g2(16, 64, 1),
  "g2-standard-24": g2(24, 96, 2),
  "g2-standard-32": g2(32, 128, 1),
  "g2-standard-48": g2(48, 192, 4),
  "g2-standard-96": g2(96, 384, 8),
  "a3-highgpu-8g": {
    vcpus: 208,
    memoryGiB: 1872,
    gpuCount: 8,
    gpuSku: "Nvidia H100 80GB GPU",
    family: "A3",
    gpu: H100,
  },
};

/**
 * GPUs attached to N1 machines, priced per GPU-hour apart from the machine. Imported as their own
 * rows named like GCE's accelerator type ("nvidia-tesla-t4"), one GPU per row: a host with two T4s
 * costs twice the row, plus its N1 machine (not a GPU price, so not imported).
 */
export const GCP_ATTACHED_GPUS: Readonly<Record<string, { accelerator: string; gpu: GpuSpec }>> = {
  "Nvidia Tesla T4 GPU": { accelerator: "nvidia-tesla-t4", gpu: spec("T4", 16) },
  "Nvidia Tesla V100 GPU": { accelerator: "nvidia-tesla-v100", gpu: spec("V100-16GB", 16) },
  "Nvidia Tesla P100 GPU": { accelerator: "nvidia-tesla-p100", gpu: spec("P100", 16) },
  "Nvidia Tesla P4 GPU": { accelerator: "nvidia-tesla-p4", gpu: spec("P4", 8) },
  "Nvidia Tesla K80 GPU": { accelerator: "nvidia-tesla-k80", gpu: spec("K80", 12) },
};
