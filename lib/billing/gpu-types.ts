import {
  AWS_GPU_FAMILIES,
  AZURE_GPU_SIZES,
  awsFamily,
  GCP_GPU_MACHINES,
} from "../pricing/import/gpu-specs.ts";

// Which billed rows are GPU instances: the instance type written somewhere in the row (a CUR
// usage type "USE1-SpotUsage:g5.xlarge", a FOCUS SKU or charge description, an Alibaba
// InstanceSpec, a Tencent configuration) is looked up in the same GPU tables the price-list import
// uses, or matched by the providers' GPU family prefixes. Nothing else is kept.

const AZURE_SIZES = new Set(Object.keys(AZURE_GPU_SIZES).map((k) => k.toLowerCase()));
/** GCP accelerator-optimised and G2 families (a2/a3/a4/g2/g4…), whatever the size. */
const GCP_FAMILY = /^(a2|a3|a4|a4x|g2|g4)-[a-z]+(?:gpu)?-\d+g?$|^g2-standard-\d+$/;
/** Alibaba ECS GPU families: gn*, vgn*, sgn*, gi*, ebmgn* (ecs.gn7i-c8g1.2xlarge). */
const ALIBABA = /^ecs\.(?:ebm|scc)?(?:gn|vgn|sgn|gi)\d/i;
/** Tencent CVM GPU families: GN*, GNV*, GT*, GI*, PNV* (GN7.2XLARGE32). */
const TENCENT = /^(?:GN|GNV|GT|GI|PNV|GC)\d+[A-Z]*(?:\.[0-9A-Z]+)?$/i;

/** The instance type when `token` is a GPU instance type of `provider`, else null. */
export function gpuInstanceType(provider: string, token: string): string | null {
  const t = token.trim();
  if (!t) return null;
  switch (provider) {
    case "aws":
      return /^[a-z0-9-]+\.[0-9a-z]+$/i.test(t) && awsFamily(t.toLowerCase()) in AWS_GPU_FAMILIES
        ? t.toLowerCase()
        : null;
    case "azure": {
      const k = t.toLowerCase();
      if (AZURE_SIZES.has(k)) return t;
      return AZURE_SIZES.has(`standard_${k}`) ? `Standard_${t}` : null;
    }
    case "gcp": {
      const k = t.toLowerCase();
      return k in GCP_GPU_MACHINES || GCP_FAMILY.test(k) ? k : null;
    }
    case "alibaba":
      return ALIBABA.test(t) ? t.toLowerCase() : null;
    case "tencent":
      return TENCENT.test(t) ? t.toUpperCase() : null;
    default:
      return null;
  }
}

/**
 * The first GPU instance type written in any of `texts` (whole cells, or tokens in them: "USE1-
 * BoxUsage:p4d.24xlarge", "ND96asr v4"), or null. Azure meter names drop "Standard_" and write
 * the size with spaces: runs of two to four words are tried joined by "_" too.
 */
export function findGpuInstanceType(provider: string, texts: readonly string[]): string | null {
  for (const text of texts) {
    if (!text) continue;
    const tokens = text.split(/[^A-Za-z0-9._-]+/).flatMap((t) => [t, t.replace(/^.*:/, "")]);
    const words = text.split(/[\s:]+/);
    for (const t of [text, ...tokens]) {
      const hit = gpuInstanceType(provider, t);
      if (hit) return hit;
    }
    if (provider === "azure") {
      for (let i = 0; i < words.length; i++) {
        for (let n = 2; n <= 4 && i + n <= words.length; n++) {
          const hit = gpuInstanceType(provider, words.slice(i, i + n).join("_"));
          if (hit) return hit;
        }
      }
    }
  }
  return null;
}

/** GCP bills cores, memory and GPUs of an instance as separate SKUs ("A3 Instance Core running in
 * Americas", "Nvidia H100 80GB GPU running in Americas"): any of them marks a GPU instance. */
export function gcpGpuSku(texts: readonly string[]): boolean {
  return texts.some((t) =>
    /\b(?:A2|A3|A4|G2|G4)\s+(?:Ultra\s+|High\s+|Mega\s+)?Instance\b|\bGPU\b/i.test(t ?? ""),
  );
}
