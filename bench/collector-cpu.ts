// `npm run bench:collector [-- --quick]`: CPU seconds per 1,000 target scrapes of the embedded
// collector (scrape, parse, minute aggregates into SQLite) beside Prometheus scraping the same
// simulated targets at the same interval, in the same run. Loopback only; asserts nothing.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { migrate } from "../lib/migrate.ts";
import { groupCpuSeconds, sleep, start, stop, type Proc } from "./lib/procs.ts";
import {
  hasPrometheus,
  promValue,
  startPrometheus,
  waitScraped,
  type Prom,
} from "./lib/prometheus.ts";
import { startSim } from "./lib/sim.ts";
import { f0, f2, table, type Section } from "./lib/stats.ts";

export interface CollectorOptions {
  hosts: number;
  gpusPerHost: number;
  intervalS: number;
  warmupS: number;
  windowS: number;
}

// Sized so that neither scraper saturates a 2-core machine: the per-scrape cost is what is compared.
export const FULL: CollectorOptions = {
  hosts: 250,
  gpusPerHost: 8,
  intervalS: 10,
  warmupS: 25,
  windowS: 120,
};
export const QUICK: CollectorOptions = { ...FULL, hosts: 100, warmupS: 15, windowS: 40 };

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

interface Tick {
  at: number;
  scrapes: number;
  ms: number;
}

export async function runCollectorBench(opts: CollectorOptions): Promise<Section> {
  if (!hasPrometheus)
    return {
      title: "Collector CPU vs Prometheus",
      lines: ["Prometheus not found: skipped."],
      goals: [],
    };
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-collector-"));
  const sim = await startSim(opts.hosts, opts.gpusPerHost, dir);
  let prom: Prom | undefined;
  let worker: Proc | undefined;
  try {
    prom = await startPrometheus(dir, sim.targetsFile, {
      interval: `${opts.intervalS}s`,
      rules: false,
    });
    const dbUrl = `file:${join(dir, "collector.db")}`;
    await migrate(dbUrl, { quiet: true });
    worker = start("collector", process.execPath, [
      "--conditions=react-server",
      "--import",
      "tsx",
      "bench/lib/collector-worker.ts",
      dbUrl,
      sim.targetsFile,
      String(opts.intervalS),
    ]);
    const ticks: Tick[] = [];
    const out = worker.child.stdout;
    if (out) createInterface({ input: out }).on("line", (l) => ticks.push(JSON.parse(l) as Tick));
    await waitScraped(prom, sim.targets);
    await sleep(opts.warmupS * 1000);
    if (worker.child.exitCode !== null) throw new Error(`collector exited:\n${worker.tail()}`);

    const t1 = Date.now();
    const cpu1 = {
      collector: groupCpuSeconds(worker.pid),
      prometheus: groupCpuSeconds(prom.proc.pid),
    };
    await sleep(opts.windowS * 1000);
    const t2 = Date.now();
    const cpu2 = {
      collector: groupCpuSeconds(worker.pid),
      prometheus: groupCpuSeconds(prom.proc.pid),
    };
    const inWindow = ticks.filter((t) => t.at > t1 && t.at <= t2);
    const collectorScrapes = inWindow.reduce((n, t) => n + t.scrapes, 0);
    const promScrapes = await promValue(
      prom.url,
      `sum(count_over_time(up{job="gpufleet"}[${Math.round((t2 - t1) / 1000)}s]))`,
    );
    const collectorCpu = cpu2.collector - cpu1.collector;
    const promCpu = cpu2.prometheus - cpu1.prometheus;
    const perK = (cpu: number, n: number) => (n > 0 ? (cpu / n) * 1000 : Number.NaN);
    const c = perK(collectorCpu, collectorScrapes);
    const p = perK(promCpu, promScrapes);
    const tickMs = inWindow.map((t) => t.ms);
    return {
      title: `Collector CPU per 1,000 target scrapes vs Prometheus (${sim.targets} targets × ${opts.gpusPerHost} GPUs, every ${opts.intervalS} s, ${opts.windowS} s window)`,
      lines: [
        ...table(
          ["scraper", "scrapes", "CPU s", "CPU s / 1,000 scrapes", "RSS MiB", "vs Prometheus"],
          [
            [
              "gpufleet embedded collector (scrape + parse + minute store, SQLite)",
              collectorScrapes,
              f2(collectorCpu),
              f2(c),
              f0(rssMiB(worker.pid)),
              `${f2(c / p)}×`,
            ],
            [
              "Prometheus (Debian), same targets, no rules",
              f0(promScrapes),
              f2(promCpu),
              f2(p),
              f0(rssMiB(prom.proc.pid)),
              "1.00×",
            ],
          ],
        ),
        "",
        `Collector ticks in the window: ${inWindow.length}, each ${f0(Math.min(...tickMs))}–${f0(Math.max(...tickMs))} ms. ` +
          "Both ran at the same time against one simulated exporter process; CPU is user + system time from /proc.",
      ],
      goals: [
        {
          goal: "collector CPU per scrape within 3× Prometheus's",
          figure: `${f2(c / p)}×`,
          met: c / p <= 3,
        },
      ],
    };
  } finally {
    await stop(worker);
    await stop(prom?.proc);
    await stop(sim.proc);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { quick: { type: "boolean", default: false } } });
  const s = await runCollectorBench(values.quick ? QUICK : FULL);
  console.log([`## ${s.title}`, "", ...s.lines, ""].join("\n"));
  process.exit(0);
}
