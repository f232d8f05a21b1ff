// `npm run bench:exporter [-- --duration=60 --load=10 --connections=10]`: scrape latency and
// throughput of the simulated exporter (8- and 64-GPU hosts) beside Debian's node_exporter,
// then RSS and CPU over a soak at 1 s collection. Loopback only; prints markdown, asserts nothing.
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { hammer, scrapeShape, type LoadResult } from "./exporter/load.ts";
import { freePort, sleep, start, stop, waitReady, type Child } from "./exporter/procs.ts";
import { soak, type SoakSummary } from "./exporter/soak.ts";

const NODE_EXPORTER = "/usr/bin/prometheus-node-exporter";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "600" },
    load: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
  },
});
const soakSeconds = Math.max(10, Number(args.duration) || 600);
const loadSeconds = Math.max(1, Number(args.load) || 10);
const connections = Math.max(1, Number(args.connections) || 10);

interface Target {
  name: string;
  gpus: string;
  child: Child;
  url: string;
}

async function startExporter(name: string, gpusPerHost: number): Promise<Target> {
  const port = await freePort();
  const child = start(name, process.execPath, [
    "--import",
    "tsx",
    "exporter/main.ts",
    "--simulate",
    "--simulate.hosts=1",
    `--simulate.gpus-per-host=${gpusPerHost}`,
    "--collect.interval=1s",
    "--log.level=warn",
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  const url = `http://127.0.0.1:${port}/metrics`;
  await waitReady(child, url);
  return { name, gpus: String(gpusPerHost), child, url };
}

async function startNodeExporter(): Promise<Target> {
  const port = await freePort();
  const child = start("node_exporter", NODE_EXPORTER, [`--web.listen-address=127.0.0.1:${port}`]);
  const url = `http://127.0.0.1:${port}/metrics`;
  await waitReady(child, url);
  return { name: `node_exporter ${nodeExporterVersion()} (Debian)`, gpus: "–", child, url };
}

function nodeExporterVersion(): string {
  try {
    const text = execFileSync(NODE_EXPORTER, ["--version"], { stdio: "pipe" }).toString();
    return /version (\S+)/.exec(text)?.[1] ?? "?";
  } catch {
    return "?";
  }
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const ratio = (a: number, b: number) => (b > 0 ? `${f2(a / b)}×` : "–");

async function loadPhase(): Promise<string[]> {
  const targets = [await startExporter("gpufleet exporter (simulated)", 8)];
  targets.push(await startExporter("gpufleet exporter (simulated)", 64));
  let node: Target | undefined;
  try {
    node = await startNodeExporter();
    targets.push(node);
  } catch (err) {
    console.error(`node_exporter unavailable, compared with nothing: ${String(err)}`);
  }
  const rows: { t: Target; shape: { bytes: number; series: number }; r: LoadResult }[] = [];
  for (const t of targets) {
    await hammer(t.url, 1, 2); // warm-up: JIT, connection pools
    const shape = await scrapeShape(t.url);
    rows.push({ t, shape, r: await hammer(t.url, loadSeconds, connections) });
    await sleep(500);
  }
  await Promise.all(targets.map((t) => stop(t.child)));
  const base = rows.find((x) => x.t === node)?.r;
  const out = [
    `## Scrape latency and throughput (same run, ${connections} connections × ${loadSeconds} s each)`,
    "",
    "| target | GPUs | body KiB | samples | p50 ms | p99 ms | req/s | p50 vs node_exporter | req/s vs node_exporter | errors / non-2xx |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const { t, shape, r } of rows) {
    out.push(
      `| ${t.name} | ${t.gpus} | ${f1(shape.bytes / 1024)} | ${shape.series} | ${f2(r.p50Ms)} | ${f2(r.p99Ms)} | ${f1(r.reqPerSec)} | ${base ? ratio(r.p50Ms, base.p50Ms) : "–"} | ${base ? ratio(r.reqPerSec, base.reqPerSec) : "–"} | ${r.errors} / ${r.non2xx} |`,
    );
  }
  return out;
}

async function soakPhase(): Promise<string[]> {
  const targets = [await startExporter("exporter, 8 GPUs", 8)];
  targets.push(await startExporter("exporter, 64 GPUs", 64));
  const everyMs = Math.min(10_000, Math.max(2000, (soakSeconds * 1000) / 120));
  let results: SoakSummary[];
  try {
    results = await soak(
      targets.map((t) => ({ child: t.child, url: t.url })),
      soakSeconds,
      everyMs,
      5000,
    );
  } finally {
    await Promise.all(targets.map((t) => stop(t.child)));
  }
  const out = [
    `## Soak: ${soakSeconds} s at 1 s collection, scraped every 5 s, RSS sampled every ${f1(everyMs / 1000)} s`,
    "",
    "| process | RSS start MiB | RSS end MiB | RSS max MiB | RSS slope MiB/h | CPU s | CPU % of a core | scrapes ok / failed |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const s of results) {
    out.push(
      `| ${s.name} | ${f1(s.rssStartMiB)} | ${f1(s.rssEndMiB)} | ${f1(s.rssMaxMiB)} | ${f1(s.slopeMiBPerHour)} | ${f2(s.cpuSeconds)} | ${f1(s.cpuPercent)} | ${s.scrapes} / ${s.scrapeErrors} |`,
    );
  }
  out.push(
    "",
    "The slope is fitted after the first fifth of the run (warm-up); over a short run it mostly",
    "shows heap growth before the first major GC, not a leak.",
  );
  return out;
}

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header = [
    "# gpufleet exporter benchmark",
    "",
    `${new Date().toISOString()} · node ${process.version} · ${cpus().length} × ${cpu} · loopback 127.0.0.1`,
    "",
    "Exporter: `exporter/main.ts --simulate` (simulated host 0: p4d.24xlarge; 64 GPUs via",
    "`--simulate.gpus-per-host=64`), run with `node --import tsx`. autocannon runs in this",
    "process, so on few cores it competes with the target for CPU.",
    "",
  ];
  console.error(`load phase: ${loadSeconds} s per target…`);
  const load = await loadPhase();
  console.error(`soak phase: ${soakSeconds} s…`);
  const soaked = await soakPhase();
  process.stdout.write([...header, ...load, "", ...soaked, ""].join("\n"));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
