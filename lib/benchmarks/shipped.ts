import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import type { BenchmarkInput } from "./schema.ts";

// Published benchmark figures the release ships, each with its source and date; nothing here is
// measured by us or estimated. Only one published figure was found that fits an instance type's
// GPU model and count: MLPerf Inference v4.1, Llama 2 70B, on NVIDIA's DGX H100 (8× H100 SXM
// 80 GB), 24,525 tokens/s across 8 GPUs, as Microsoft's Azure HPC blog quotes it (2025-11-03).
// It is attached to the instance types with the same 8× H100 SXM 80 GB, with a note saying it was
// not measured on the instance itself. Installed on every start; a person's own rows are never
// touched, and no person can replace or delete a shipped row (create, CSV import and delete refuse).

const DGX_H100_SOURCE =
  "MLPerf Inference v4.1 result for NVIDIA DGX H100 (8× H100 SXM), as quoted in Microsoft Azure HPC blog, Breaking the Million-Token Barrier, https://techcommunity.microsoft.com/blog/azurehighperformancecomputingblog/breaking-the-million-token-barrier-the-technical-achievement-of-azure-nd-gb300-v/4466080";
const DGX_H100_NOTE =
  "measured by NVIDIA on a DGX H100 (8× H100 SXM 80 GB), the GPU model and count of this instance type; not measured on the instance itself, so network, host CPU and virtualization may differ";

const dgxH100 = (provider: string, instanceType: string): BenchmarkInput => ({
  provider,
  instanceType,
  workload: "MLPerf Inference v4.1 Llama 2 70B",
  unit: "tokens/s",
  value: 24525,
  source: DGX_H100_SOURCE,
  sourceDate: "2025-11-03",
  note: DGX_H100_NOTE,
});

export const SHIPPED_BENCHMARKS: readonly BenchmarkInput[] = [
  dgxH100("aws", "p5.48xlarge"),
  dgxH100("gcp", "a3-highgpu-8g"),
  dgxH100("azure", "Standard_ND96isr_H100_v5"),
];

export interface BenchmarkInstallResult {
  inserted: number;
  updated: number;
  kept: number;
}

/** Installs the shipped results: missing ones are added, shipped ones a release corrected are
 * updated, a person's rows are left alone. Safe on every start and from several replicas. */
export async function installShippedBenchmarks(
  client: Db = defaultDb,
  rows: readonly BenchmarkInput[] = SHIPPED_BENCHMARKS,
): Promise<BenchmarkInstallResult> {
  const result: BenchmarkInstallResult = { inserted: 0, updated: 0, kept: 0 };
  for (const r of rows) {
    const where = {
      provider_instanceType_workload_unit_source: {
        provider: r.provider,
        instanceType: r.instanceType,
        workload: r.workload,
        unit: r.unit,
        source: r.source,
      },
    };
    const current = await client.benchmarkResult.findUnique({ where });
    if (!current) {
      await client.benchmarkResult.upsert({
        where,
        create: { ...r, origin: "shipped" },
        update: {},
      });
      result.inserted++;
    } else if (
      current.origin === "shipped" &&
      (current.value !== r.value || current.sourceDate !== r.sourceDate || current.note !== r.note)
    ) {
      await client.benchmarkResult.updateMany({
        where: { id: current.id, origin: "shipped" },
        data: { value: r.value, sourceDate: r.sourceDate, note: r.note },
      });
      result.updated++;
    } else {
      result.kept++;
    }
  }
  return result;
}
