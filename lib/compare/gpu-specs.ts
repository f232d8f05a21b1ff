// The GPU spec table the comparison divides prices by: dense (no sparsity) BF16 and FP16 tensor
// TFLOPS, memory and memory bandwidth per GPU, each from NVIDIA's own datasheet. Where a datasheet
// prints a figure "with sparsity" and says the dense figure is half of it, the table keeps the
// half and says so in `note`; a figure a datasheet does not give is null, never guessed.
// Figures were read 2026-12 from the datasheets named (as reproduced on the pages the `search`
// corpus holds: retailer/spec-database copies of the same tables); `sourceDate` is the
// datasheet's publication month, approximate where marked.

export interface GpuSpec {
  /** canonical key, the catalogue's spelling: "H100-80GB" */
  key: string;
  label: string;
  /** dense BF16 tensor TFLOPS (null: not supported or not published) */
  bf16Tflops: number | null;
  /** dense FP16 tensor TFLOPS */
  fp16Tflops: number | null;
  memoryGB: number;
  memoryBandwidthGBs: number;
  source: string;
  sourceDate: string;
  note: string | null;
}

const HALVED =
  "the datasheet prints the tensor figures with sparsity (footnote: * with sparsity); the dense figure is half";

export const GPU_SPECS: readonly GpuSpec[] = [
  {
    key: "T4",
    label: "NVIDIA T4",
    bf16Tflops: null,
    fp16Tflops: 65,
    memoryGB: 16,
    memoryBandwidthGBs: 320,
    source:
      "NVIDIA T4 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf",
    sourceDate: "2019-03",
    note: "Turing has no BF16; 65 TFLOPS is the datasheet's mixed precision (FP16/FP32) figure, dense; bandwidth printed as 320+ GB/s; date approximate",
  },
  {
    key: "L4",
    label: "NVIDIA L4",
    bf16Tflops: 121,
    fp16Tflops: 121,
    memoryGB: 24,
    memoryBandwidthGBs: 300,
    source:
      "NVIDIA L4 Tensor Core GPU datasheet, https://resources.nvidia.com/en-us-data-center-overview/l4-gpu-datasheet",
    sourceDate: "2023-03",
    note: `${HALVED} (242 → 121); date approximate`,
  },
  {
    key: "A10",
    label: "NVIDIA A10",
    bf16Tflops: 125,
    fp16Tflops: 125,
    memoryGB: 24,
    memoryBandwidthGBs: 600,
    source:
      "NVIDIA A10 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf",
    sourceDate: "2021-04",
    note: "the datasheet prints 125 | 250* (dense | with sparsity); date approximate",
  },
  {
    key: "A10G",
    label: "NVIDIA A10G (AWS)",
    bf16Tflops: null,
    fp16Tflops: null,
    memoryGB: 24,
    memoryBandwidthGBs: 600,
    source:
      "AWS EC2 G5 instances, https://aws.amazon.com/ec2/instance-types/g5/; Baseten, NVIDIA A10 vs A10G, https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/",
    sourceDate: "2023-09",
    note: "AWS-only part: NVIDIA publishes no datasheet, so no tensor TFLOPS are shown (its tensor figures differ from the A10's); memory and bandwidth as the A10",
  },
  {
    key: "L40S",
    label: "NVIDIA L40S",
    bf16Tflops: 362.05,
    fp16Tflops: 362.05,
    memoryGB: 48,
    memoryBandwidthGBs: 864,
    source: "NVIDIA L40S datasheet, https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413",
    sourceDate: "2023-08",
    note: "the datasheet prints 362.05 | 733* (dense | with sparsity); date approximate",
  },
  ...[16, 32].map((gb): GpuSpec => ({
    key: `V100-${gb}GB`,
    label: `NVIDIA V100 ${gb} GB (SXM2)`,
    bf16Tflops: null,
    fp16Tflops: 125,
    memoryGB: gb,
    memoryBandwidthGBs: 900,
    source:
      "NVIDIA V100 Tensor Core GPU datasheet, https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf",
    sourceDate: "2020-01",
    note: "Volta has no BF16; 125 TFLOPS is the SXM2 tensor figure (PCIe: 112), no sparsity; date approximate",
  })),
  {
    key: "A100-40GB",
    label: "NVIDIA A100 40 GB (SXM)",
    bf16Tflops: 312,
    fp16Tflops: 312,
    memoryGB: 40,
    memoryBandwidthGBs: 1555,
    source:
      "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    sourceDate: "2021-06",
    note: "the datasheet prints 312 | 624* (dense | with sparsity); date approximate",
  },
  {
    key: "A100-80GB",
    label: "NVIDIA A100 80 GB (SXM)",
    bf16Tflops: 312,
    fp16Tflops: 312,
    memoryGB: 80,
    memoryBandwidthGBs: 2039,
    source:
      "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    sourceDate: "2021-06",
    note: "the datasheet prints 312 | 624* (dense | with sparsity); date approximate",
  },
  {
    key: "H100-80GB",
    label: "NVIDIA H100 80 GB (SXM)",
    bf16Tflops: 989.5,
    fp16Tflops: 989.5,
    memoryGB: 80,
    memoryBandwidthGBs: 3350,
    source:
      "NVIDIA H100 Tensor Core GPU datasheet, https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
    sourceDate: "2023-09",
    note: `${HALVED} (1,979 → 989.5); date approximate`,
  },
  {
    key: "H200-141GB",
    label: "NVIDIA H200 141 GB (SXM)",
    bf16Tflops: 989.5,
    fp16Tflops: 989.5,
    memoryGB: 141,
    memoryBandwidthGBs: 4800,
    source:
      "NVIDIA H200 Tensor Core GPU datasheet, https://nvdam.widen.net/s/nb5zzzsjdf/hpc-datasheet-sc23-h200-datasheet-3002446",
    sourceDate: "2023-11",
    note: `${HALVED} (1,979 → 989.5)`,
  },
  {
    key: "B200-180GB",
    label: "NVIDIA B200 (HGX, 180 GB)",
    bf16Tflops: 2250,
    fp16Tflops: 2250,
    memoryGB: 180,
    memoryBandwidthGBs: 8000,
    source:
      "NVIDIA HGX platform specifications (HGX B200), https://www.nvidia.com/en-us/data-center/hgx/",
    sourceDate: "2025-03",
    note: "the page gives 8-GPU totals with sparsity (FP16/BF16 36 PFLOPS, 1.4 TB, 64 TB/s); per GPU ÷ 8, dense = half of 4.5 PFLOPS; date approximate",
  },
];

const BY_KEY = new Map(GPU_SPECS.map((s) => [s.key, s]));

/**
 * What a GPU model string names, as a spec key: the catalogue's own spelling ("A100-40GB") or an
 * nvidia-smi name ("NVIDIA A100-SXM4-40GB", "Tesla T4", "NVIDIA H100 80GB HBM3"). null when the
 * table has no such GPU (e.g. "H100-94GB" NVL, "K80", an unknown string).
 */
export function specKeyOf(gpuModel: string | null | undefined): string | null {
  if (!gpuModel) return null;
  const raw = gpuModel.trim();
  if (BY_KEY.has(raw)) return raw;
  const s = raw
    .toUpperCase()
    .replace(/^NVIDIA\s+/, "")
    .replace(/^TESLA\s+/, "");
  const gb = /(\d+)\s*GB/.exec(s)?.[1];
  if (/^B200\b/.test(s)) return "B200-180GB";
  if (/^H200\b/.test(s)) return gb === undefined || gb === "141" ? "H200-141GB" : null;
  if (/^H100\b/.test(s)) {
    if (/NVL|PCIE/.test(s)) return null;
    return gb === undefined || gb === "80" ? "H100-80GB" : null;
  }
  if (/^A100\b/.test(s)) return gb === "80" ? "A100-80GB" : gb === "40" || !gb ? "A100-40GB" : null;
  if (/^V100\b/.test(s)) return gb === "32" ? "V100-32GB" : "V100-16GB";
  if (/^L40S\b/.test(s)) return "L40S";
  if (/^A10G\b/.test(s)) return "A10G";
  if (/^A10\b/.test(s)) return "A10";
  if (/^L4\b/.test(s)) return "L4";
  if (/^T4\b/.test(s)) return "T4";
  return null;
}

export function specOf(gpuModel: string | null | undefined): GpuSpec | null {
  const key = specKeyOf(gpuModel);
  return key === null ? null : (BY_KEY.get(key) ?? null);
}

/** The dense TFLOPS the comparison divides by: BF16 where the GPU has it, else FP16. */
export function denseTflops(spec: GpuSpec): { tflops: number; precision: "BF16" | "FP16" } | null {
  if (spec.bf16Tflops !== null) return { tflops: spec.bf16Tflops, precision: "BF16" };
  if (spec.fp16Tflops !== null) return { tflops: spec.fp16Tflops, precision: "FP16" };
  return null;
}
