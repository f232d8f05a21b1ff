// `npm run bench:exporter [-- --soak] [--load=10] [--connections=8] [--gpus=64]`: builds the
// compiled exporter, starts it (one simulated host) beside Debian's node_exporter with only its
// loadavg and meminfo collectors and with its defaults, loads each in turn (same run, same
// machine), and prints every goal of issue 27 next to its figure. --soak adds the 10-minute soak
// at 1 s collection. Loopback only; prints markdown on stdout, progress on stderr.
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import {
  goalTable,
  latencyGoal,
  rssGoal,
  soakGoal,
  throughputGoal,
  type Goal,
  type SoakFigures,
} from "./exporter/goals.ts";
import {
  freePort,
  residentSplit,
  sleep,
  start,
  stop,
  waitReady,
  type Child,
} from "./exporter/procs.ts";
import {
  buildExporter,
  ensureTools,
  EXPORTER_MAIN,
  EXPORTER_NODE_FLAGS,
  NODE_EXPORTER,
} from "./exporter/setup.ts";
import { soak } from "./exporter/soak.ts";
import { load, type LoadResult } from "./exporter/wrk.ts";
import { describePinning, pinning, pinProcess } from "./exporter/pin.ts";

const { values: args } = parseArgs({
  options: {
    soak: { type: "boolean", default: false },
    "soak-seconds": { type: "string", default: "600" },
    load: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    gpus: { type: "string", default: "64" },
  },
});
const loadSeconds = Math.max(1, Number(args.load) || 10);
const connections = Math.max(1, Number(args.connections) || 8);
const gpus = Math.max(1, Number(args.gpus) || 64);
const soakSeconds = Math.max(10, Number(args["soak-seconds"]) || 600);

/** What Prometheus 2.x sends: OpenMetrics first, gzip always. */
const PROMETHEUS_HEADERS = {
  accept:
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
  "accept-encoding": "gzip",
};
const ENCODINGS = [
  { name: "no compression", headers: {} },
  { name: "as Prometheus asks (OpenMetrics, gzip)", headers: PROMETHEUS_HEADERS },
] as const;

interface Target {
  name: string;
  child: Child;
  url: string;
}

const pin = pinning();
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const MiB = 1024 * 1024;
const log = (line: string) => process.stderr.write(`bench:exporter: ${line}\n`);

/** `--collect.interval`: the bench's 1 s, or null for the exporter's default (5 s). */
async function startOurs(name: string, interval: string | null = "1s"): Promise<Target> {
  const port = await freePort();
  const child = start(name, process.execPath, [
    ...EXPORTER_NODE_FLAGS,
    EXPORTER_MAIN,
    "--simulate",
    "--simulate.hosts=1",
    `--simulate.gpus-per-host=${gpus}`,
    ...(interval ? [`--collect.interval=${interval}`] : []),
    "--log.level=warn",
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  const url = `http://127.0.0.1:${port}/metrics`;
  await waitReady(child, url);
  if (pin) pinProcess(child.pid, pin.server);
  return { name, child, url };
}

async function startNodeExporter(name: string, flags: string[]): Promise<Target> {
  const port = await freePort();
  const child = start(name, NODE_EXPORTER, [...flags, `--web.listen-address=127.0.0.1:${port}`]);
  const url = `http://127.0.0.1:${port}/metrics`;
  await waitReady(child, url);
  if (pin) pinProcess(child.pid, pin.server);
  return { name, child, url };
}

/** Peak resident set size (VmHWM) from /proc, bytes. */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
}

async function bodySize(url: string, headers: Record<string, string>) {
  // fetch asks for gzip by itself; wrk sends only the headers given
  const res = await fetch(url, { headers: { "accept-encoding": "identity", ...headers } });
  const text = await res.text();
  const samples = text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).length;
  const encoded = Number(res.headers.get("content-length") ?? Buffer.byteLength(text));
  return { encoded, samples };
}

interface Row {
  target: Target;
  encoding: string;
  kib: number;
  samples: number;
  r: LoadResult;
}

async function loadPhase(targets: Target[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const enc of ENCODINGS) {
    for (const t of targets) {
      log(`${t.name}, ${enc.name}: ${loadSeconds} s`);
      const shape = await bodySize(t.url, enc.headers);
      const opts = { url: t.url, connections, headers: enc.headers, cpu: pin?.load };
      await load({ ...opts, seconds: 2 }); // warm-up
      const r = await load({ ...opts, seconds: loadSeconds });
      rows.push({ target: t, encoding: enc.name, kib: shape.encoded / 1024, ...shape, r });
      await sleep(500);
    }
  }
  return rows;
}

async function soakPhase(): Promise<{ lines: string[]; figures: SoakFigures }> {
  const t = await startOurs(`gpufleet exporter, ${gpus} GPUs`);
  log(`soak: ${soakSeconds} s at 1 s collection, scraped every second (text and OpenMetrics+gzip)`);
  let s;
  try {
    [s] = await soak([{ child: t.child, url: t.url }], soakSeconds, 5000, 1000, [
      {},
      PROMETHEUS_HEADERS,
    ]);
  } finally {
    await stop(t.child);
  }
  if (!s) throw new Error("soak returned no summary");
  const lines = [
    `## Soak: ${soakSeconds} s at 1 s collection, scraped every second, RSS sampled every 5 s`,
    "",
    "| process | RSS start MiB | RSS after 1 min | RSS end MiB | RSS max MiB | slope MiB/h (after the first fifth) | CPU % of a core | scrapes ok / failed |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    `| ${s.name} | ${f1(s.rssStartMiB)} | ${f1(s.rssWarmMiB)} | ${f1(s.rssEndMiB)} | ${f1(s.rssMaxMiB)} | ${f1(s.slopeMiBPerHour)} | ${f1(s.cpuPercent)} | ${s.scrapes} / ${s.scrapeErrors} |`,
  ];
  const figures = {
    seconds: soakSeconds,
    startMiB: s.rssStartMiB,
    warmMiB: s.rssWarmMiB,
    endMiB: s.rssEndMiB,
    maxMiB: s.rssMaxMiB,
  };
  return { lines, figures };
}

async function main(): Promise<void> {
  log("building the exporter (npm run build:exporter)");
  const buildSeconds = buildExporter();
  const tools = ensureTools();
  tools.notes.forEach(log);
  const haveNode = !tools.missing.includes("prometheus-node-exporter");
  const whyNoNode = "prometheus-node-exporter is not installed (see the note above the tables)";

  const ours = await startOurs(`gpufleet exporter (compiled), ${gpus} GPUs`);
  const targets = [ours];
  let two: Target | undefined;
  if (haveNode) {
    two = await startNodeExporter("node_exporter, loadavg + meminfo", [
      "--collector.disable-defaults",
      "--collector.loadavg",
      "--collector.meminfo",
    ]);
    targets.push(two, await startNodeExporter("node_exporter, default collectors", []));
  }
  // Node itself, idle, under the same flags: the floor under the exporter's resident memory
  const idle = start("node (idle)", process.execPath, [
    ...EXPORTER_NODE_FLAGS,
    "-e",
    "setInterval(() => {}, 1 << 30)",
  ]);
  const loadBefore = loadavg()[0] ?? 0;
  let rows: Row[];
  let mem: ReturnType<typeof residentSplit>;
  let idleMem: ReturnType<typeof residentSplit>;
  let peak: number;
  try {
    rows = await loadPhase(targets);
    await sleep(2000); // a tick or two after the load: what it holds, not a mid-GC peak
    mem = residentSplit(ours.child.pid);
    peak = peakRss(ours.child.pid);
    idleMem = residentSplit(idle.pid);
  } finally {
    await Promise.all([...targets.map((t) => stop(t.child)), stop(idle)]);
  }
  const rss = mem.rss;
  const memNote =
    `${f1(mem.fileBacked / MiB)} MiB of it is file-backed (node's binary, shared with other ` +
    `node processes), ${f1(mem.anonymous / MiB)} MiB its own; an idle node: ` +
    `${f1(idleMem.rss / MiB)} MiB (${f1(idleMem.fileBacked / MiB)} file-backed)`;
  // the same load on the exporter as it ships (the default 5 s collection): the tick, which holds
  // the event loop a few ms, comes five times less often (bench/README.md, exporter p99)
  const shipped = await startOurs(
    `gpufleet exporter (compiled), ${gpus} GPUs, default 5 s collection`,
    null,
  );
  let shippedRows: Row[];
  try {
    shippedRows = await loadPhase([shipped]);
  } finally {
    await stop(shipped.child);
  }
  rows.push(...shippedRows);
  const loadAfter = loadavg()[0] ?? 0;
  const soaked = args.soak ? await soakPhase() : undefined;

  const context = `1-min load average ${f1(loadBefore)} → ${f1(loadAfter)} on ${cpus().length} cores (the load generator and other work share them)`;
  const goals: Goal[] = [];
  for (const enc of ENCODINGS) {
    const mine = rows.find((x) => x.target === ours && x.encoding === enc.name)?.r;
    const base = rows.find((x) => x.target === two && x.encoding === enc.name)?.r;
    if (!mine) continue;
    goals.push(throughputGoal(enc.name, mine, base, whyNoNode));
    const tick = `${context}; at 1 s collection the tick (collection, render, heap trim) holds the event loop a few ms every second`;
    goals.push(latencyGoal(`${enc.name}, 1 s collection`, mine, tick));
  }
  for (const enc of ENCODINGS) {
    const mine = rows.find((x) => x.target === shipped && x.encoding === enc.name)?.r;
    if (mine) goals.push(latencyGoal(`${enc.name}, the default 5 s collection`, mine, context));
  }
  goals.push(rssGoal(rss / MiB, peak / MiB, memNote), soakGoal(soaked?.figures));

  const tool = rows[0]?.r.tool ?? "?";
  const out = [
    "# gpufleet exporter benchmark",
    "",
    `${new Date().toISOString()} · node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? "?"} · loopback 127.0.0.1 · ${context}`,
    "",
    `Exporter: \`node ${EXPORTER_NODE_FLAGS.join(" ")} ${EXPORTER_MAIN} --simulate --simulate.hosts=1 --simulate.gpus-per-host=${gpus} --collect.interval=1s\`, built first (${f1(buildSeconds)} s); then, alone, the same without \`--collect.interval\` (the default 5 s) for the p99 as it ships.`,
    `Load: ${tool}${tool === "wrk" ? " (1 thread)" : ""}, ${connections} connections, ${loadSeconds} s per target and encoding after a 2 s warm-up; the targets run side by side, loaded one at a time; ${describePinning(pin)}.`,
    ...tools.notes.map((n) => `Note: ${n}`),
    "",
    "## Goals (issue 27)",
    "",
    ...goalTable(goals),
    "",
    "## Scrape throughput and latency",
    "",
    "| target | encoding | body KiB sent | samples | req/s | p50 ms | p99 ms | req/s vs node_exporter (loadavg+meminfo) | errors / non-2xx |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(({ target, encoding, kib, samples, r }) => {
      const base = rows.find((x) => x.target === two && x.encoding === encoding)?.r;
      const vs = base ? `${f2(r.reqPerSec / base.reqPerSec)}×` : "not run";
      return `| ${target.name} | ${encoding} | ${f1(kib)} | ${samples} | ${f1(r.reqPerSec)} | ${f2(r.p50Ms)} | ${f2(r.p99Ms)} | ${vs} | ${r.errors} / ${r.non2xx} |`;
    }),
    "",
    `gpufleet exporter resident after the load phase: ${f1(rss / MiB)} MiB (peak ${f1(peak / MiB)} MiB); ${memNote}.`,
    "",
    ...(soaked
      ? soaked.lines
      : ["Soak not run in this invocation: `npm run bench:exporter -- --soak`."]),
    "",
  ];
  process.stdout.write(out.join("\n"));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
