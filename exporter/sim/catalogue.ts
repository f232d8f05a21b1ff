// Instance types (names match the pricing catalogue exactly; "dgx-a100" is deliberately
// unpriced) and the regions the simulated fleet runs in.

export interface InstanceType {
  provider: string;
  instanceType: string;
  gpuName: string;
  gpus: number;
  /** regions the type is offered in, in this simulation */
  regions: readonly string[];
}

const AWS_US = ["us-east-1", "us-west-2"] as const;
const AWS_ALL = ["us-east-1", "us-west-2", "eu-west-1"] as const;
const GCP = ["us-central1", "europe-west4"] as const;
const AZURE = ["eastus", "westeurope"] as const;

export const INSTANCE_TYPES: readonly InstanceType[] = [
  { provider: "aws", instanceType: "g4dn.xlarge", gpuName: "Tesla T4", gpus: 1, regions: AWS_ALL },
  { provider: "aws", instanceType: "g5.xlarge", gpuName: "NVIDIA A10G", gpus: 1, regions: AWS_ALL },
  { provider: "aws", instanceType: "g6.xlarge", gpuName: "NVIDIA L4", gpus: 1, regions: AWS_US },
  {
    provider: "aws",
    instanceType: "p3.2xlarge",
    gpuName: "Tesla V100-SXM2-16GB",
    gpus: 1,
    regions: AWS_US,
  },
  {
    provider: "aws",
    instanceType: "p4d.24xlarge",
    gpuName: "NVIDIA A100-SXM4-40GB",
    gpus: 8,
    regions: AWS_US,
  },
  {
    provider: "aws",
    instanceType: "p5.48xlarge",
    gpuName: "NVIDIA H100 80GB HBM3",
    gpus: 8,
    regions: AWS_US,
  },
  {
    provider: "aws",
    instanceType: "p5en.48xlarge",
    gpuName: "NVIDIA H200",
    gpus: 8,
    regions: ["us-east-1"],
  },
  {
    provider: "gcp",
    instanceType: "a2-highgpu-1g",
    gpuName: "NVIDIA A100-SXM4-40GB",
    gpus: 1,
    regions: GCP,
  },
  {
    provider: "gcp",
    instanceType: "a2-ultragpu-1g",
    gpuName: "NVIDIA A100-SXM4-80GB",
    gpus: 1,
    regions: GCP,
  },
  {
    provider: "gcp",
    instanceType: "a3-highgpu-8g",
    gpuName: "NVIDIA H100 80GB HBM3",
    gpus: 8,
    regions: GCP,
  },
  { provider: "gcp", instanceType: "g2-standard-4", gpuName: "NVIDIA L4", gpus: 1, regions: GCP },
  {
    provider: "azure",
    instanceType: "Standard_ND96asr_v4",
    gpuName: "NVIDIA A100-SXM4-40GB",
    gpus: 8,
    regions: AZURE,
  },
  {
    provider: "azure",
    instanceType: "Standard_NC4as_T4_v3",
    gpuName: "Tesla T4",
    gpus: 1,
    regions: AZURE,
  },
  {
    provider: "alibaba",
    instanceType: "ecs.gn6i-c4g1.xlarge",
    gpuName: "Tesla T4",
    gpus: 1,
    // cn-shanghai has a CNY catalogue row; cn-hangzhou falls back to the "*" USD row
    regions: ["cn-shanghai", "cn-hangzhou"],
  },
  {
    provider: "tencent",
    instanceType: "GN7.2XLARGE32",
    gpuName: "Tesla T4",
    gpus: 1,
    regions: ["ap-guangzhou"],
  },
  {
    provider: "onprem",
    instanceType: "dgx-a100",
    gpuName: "NVIDIA A100-SXM4-80GB",
    gpus: 8,
    regions: ["dc1"],
  },
];

const TYPE_BY_NAME = new Map(INSTANCE_TYPES.map((t) => [t.instanceType, t]));

export function instanceType(name: string): InstanceType {
  const t = TYPE_BY_NAME.get(name);
  if (!t) throw new Error(`unknown simulated instance type: ${name}`);
  return t;
}

/** Standard-time UTC offset (DST ignored: cheap and deterministic) and hostname code. */
export const REGIONS: Readonly<Record<string, { utcOffsetHours: number; code: string }>> = {
  "us-east-1": { utcOffsetHours: -5, code: "use1" },
  "us-west-2": { utcOffsetHours: -8, code: "usw2" },
  "eu-west-1": { utcOffsetHours: 0, code: "euw1" },
  "us-central1": { utcOffsetHours: -6, code: "usc1" },
  "europe-west4": { utcOffsetHours: 1, code: "euw4" },
  eastus: { utcOffsetHours: -5, code: "eus" },
  westeurope: { utcOffsetHours: 1, code: "weu" },
  "cn-hangzhou": { utcOffsetHours: 8, code: "hzh" },
  "cn-shanghai": { utcOffsetHours: 8, code: "sha" },
  "ap-guangzhou": { utcOffsetHours: 8, code: "gz" },
  dc1: { utcOffsetHours: -5, code: "dc1" },
};

export function regionOffsetHours(region: string): number {
  return REGIONS[region]?.utcOffsetHours ?? 0;
}

export function regionCode(region: string): string {
  return REGIONS[region]?.code ?? region.replace(/[^a-z0-9]/g, "");
}
