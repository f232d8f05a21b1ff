// A real Prometheus whose history is written before it starts: the samples seedClosedHours
// (./seed-minutes.ts) stores as embedded minutes, as OpenMetrics, turned into TSDB blocks by
// `promtool tsdb create-blocks-from openmetrics` (the documented backfill:
// https://prometheus.io/docs/prometheus/latest/storage/#backfilling-from-openmetrics-format),
// then served on a port chosen before it starts, so a client can be pointed at it while it is
// still down. Nothing scrapes: every query answers from the seeded blocks.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { METRIC as M } from "@/exporter/contract.ts";
import { floorHour } from "@/lib/ledger/job.ts";
import { runPrometheus, type RunningPrometheus } from "@/lib/testing/prometheus.ts";
import { SEED_GPUS } from "./seed-minutes.ts";

export const PROMTOOL_BIN = process.env.PROMTOOL_BIN ?? "/usr/bin/promtool";
export const hasPromtool = existsSync(PROMTOOL_BIN);

/** Scrapes per minute in the history, at these seconds of each minute (never on its edges). */
const OFFSETS_S = [5, 20, 35, 50];
const GIB = 1024 ** 3;

/**
 * The OpenMetrics text of `hours` closed hours before `before`, for `hosts` hosts named
 * fault-<h> with SEED_GPUS GPUs each: the same values, minute by minute, as seedClosedHours
 * stores (utilization 0 on minutes where (minute + GPU index) % 7 is 0, else 0.8; 10 of 40 GiB
 * used; one process), four scrapes a minute.
 */
export function seedOpenMetrics(before: Date, hours: number, hosts: number): string {
  const first = (floorHour(before.getTime()) - hours * 3_600_000) / 1000;
  const minutes = hours * 60;
  const families = new Map<string, string[]>();
  const series = (name: string, labels: Record<string, string>, value: (m: number) => number) => {
    const l = Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .join(",");
    const lines = families.get(name) ?? [];
    families.set(name, lines);
    for (let m = 0; m < minutes; m++)
      for (const off of OFFSETS_S) lines.push(`${name}{${l}} ${value(m)} ${first + m * 60 + off}`);
  };
  for (let h = 0; h < hosts; h++) {
    const target = { instance: `fault-${h}:9400`, job: "gpu" };
    series(M.up, target, () => 1);
    series(
      M.hostInfo,
      {
        ...target,
        hostname: `fault-${h}`,
        provider: "aws",
        instance_type: "p4d.24xlarge",
        region: "us-east-1",
        pricing_model: "on_demand",
      },
      () => 1,
    );
    for (let g = 0; g < SEED_GPUS; g++) {
      const gpu = { ...target, gpu: String(g), uuid: `GPU-fault-${h}-${g}` };
      series(M.gpuInfo, { ...gpu, name: "NVIDIA A100-SXM4-40GB" }, () => 1);
      series(M.util, gpu, (m) => ((m + g) % 7 === 0 ? 0 : 0.8));
      series(M.memUsed, gpu, () => 10 * GIB);
      series(M.memTotal, gpu, () => 40 * GIB);
      series(M.processes, gpu, () => 1);
    }
  }
  const out: string[] = [];
  for (const [name, lines] of families) out.push(`# TYPE ${name} gauge`, ...lines);
  return `${out.join("\n")}\n# EOF\n`;
}

/** Writes the history into a fresh data directory and returns it. */
export function seedTsdb(openMetrics: string): string {
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-prom-seeded-"));
  const data = join(dir, "data");
  mkdirSync(data);
  const input = join(dir, "history.om.txt");
  writeFileSync(input, openMetrics);
  const r = spawnSync(
    PROMTOOL_BIN,
    ["tsdb", "create-blocks-from", "openmetrics", "-q", input, data],
    {
      encoding: "utf8",
    },
  );
  if (r.status !== 0) throw new Error(`promtool failed (${r.status}): ${r.stderr}${r.stdout}`);
  return data;
}

/** Starts Prometheus on `port` over `dataDir`, with nothing to scrape; resolves once ready. */
export async function startSeededPrometheus(
  dataDir: string,
  port: number,
): Promise<RunningPrometheus> {
  const config = join(dataDir, "..", "prometheus.yml");
  writeFileSync(config, "global:\n  scrape_interval: 15s\n");
  return runPrometheus(config, dataDir, port);
}
