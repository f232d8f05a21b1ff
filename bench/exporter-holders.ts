// `npm run bench:exporter-holders [-- --rounds=N]`: what process attribution costs the exporter
// on one host with 64 GPUs × 4 compute processes, attribution off and on, in the same run.
// The /proc tree is the simulator's (all four host kinds mixed), written to a temporary
// directory and read through the real fs reader; user names come from a table (getent runs
// once per uid in the background, never on this path). Measured per round:
//   collection  parse the --query-compute-apps text, attribute (on), store in the host state
//   scrape      render the host's registry (what GET /metrics does)
// The first attributed collection (every status and cgroup file read) is reported apart from
// the steady ones (one stat file per process). Prints medians (CPU: means), the on/off ratio
// and the series count per GPU. Asserts nothing.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { resolveConfig } from "../exporter/config.ts";
import { Attributor } from "../exporter/holders/attribute.ts";
import { fsProcReader } from "../exporter/holders/procfs.ts";
import { UserNames, tableLookup } from "../exporter/holders/users.ts";
import { silentLogger } from "../exporter/log.ts";
import { APP_FIELDS } from "../exporter/nvidia/fields.ts";
import { parseComputeApps } from "../exporter/nvidia/parse-apps.ts";
import { buildSource } from "../exporter/sources.ts";
import {
  SIM_USERS,
  simProcFiles,
  writeProcTree,
  type SimHostKind,
} from "../exporter/sim/holders.ts";
import { f2, median, table } from "./lib/stats.ts";

const GPUS = 64;
const PER_GPU = 4;
const KINDS: SimHostKind[] = ["shared", "kubernetes", "slurm", "docker"];

const { values } = parseArgs({ options: { rounds: { type: "string", default: "200" } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 10) throw new Error("--rounds must be an integer ≥ 10");

async function main(): Promise<void> {
  // one simulated host with 64 GPUs gives the GPU readings; its processes are replaced below
  const cfg = resolveConfig({ simulate: true, simulateGpusPerHost: GPUS, logger: silentLogger });
  const src = buildSource({ ...cfg, holders: { ...cfg.holders, enabled: false } }, silentLogger);
  const now = Date.now();
  await src.tick(now);
  const host = src.hosts[0];
  if (!host) throw new Error("no simulated host");
  const gpus = host.state.view(now).gpus;
  if (gpus.length !== GPUS) throw new Error(`expected ${GPUS} GPUs, got ${gpus.length}`);

  // 256 processes, their nvidia-smi lines and their /proc files
  const dir = mkdtempSync(join(tmpdir(), "bench-holders-proc-"));
  const tree = new Map<string, string>();
  let apps = "";
  gpus.forEach((g, gi) => {
    for (let k = 0; k < PER_GPU; k++) {
      const pid = 10_000 + gi * PER_GPU + k;
      const cells: Record<string, string> = {
        gpu_uuid: g.uuid,
        pid: String(pid),
        process_name: "/usr/bin/python3",
        used_gpu_memory: "1000",
        used_memory: "1000",
      };
      apps += APP_FIELDS.map((f) => cells[f] ?? "[N/A]").join(", ") + "\n";
      const files = simProcFiles(KINDS[gi % KINDS.length] ?? "shared", 7, pid, "python3");
      for (const [f, text] of Object.entries(files)) tree.set(`${pid}/${f}`, text);
    }
  });
  await writeProcTree(dir, tree);
  const fields = APP_FIELDS;

  const users = new UserNames({ lookup: tableLookup(SIM_USERS) });
  for (const [uid, name] of SIM_USERS) users.cache.set(uid, name);
  const attributor = new Attributor({ proc: fsProcReader(dir), users });
  const { state, metrics } = host;

  const cpu = { off: 0, on: 0 };
  async function collect(on: boolean): Promise<number> {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { items } = parseComputeApps(apps, fields);
    if (on) await attributor.attribute(items);
    state.replaceProcesses(items, Date.now());
    const ms = performance.now() - t0;
    const used = process.cpuUsage(c0);
    cpu[on ? "on" : "off"] += (used.user + used.system) / 1000;
    for (const g of gpus) state.setGpu(g, Date.now()); // keep the GPUs fresh through long runs
    return ms;
  }
  async function scrape(): Promise<{ ms: number; text: string }> {
    const t0 = performance.now();
    const text = await metrics.render(state.view(Date.now()));
    return { ms: performance.now() - t0, text };
  }

  const first = await collect(true);
  cpu.on = 0;
  const res = {
    off: { c: [] as number[], s: [] as number[] },
    on: { c: [] as number[], s: [] as number[] },
  };
  let texts = { off: "", on: "" };
  for (let r = 0; r < rounds; r++) {
    // interleaved, so machine noise falls on both alike
    for (const mode of ["off", "on"] as const) {
      res[mode].c.push(await collect(mode === "on"));
      const s = await scrape();
      res[mode].s.push(s.ms);
      texts = { ...texts, [mode]: s.text };
    }
  }
  rmSync(dir, { recursive: true, force: true });

  const count = (text: string, name: string) =>
    text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `)).length;
  const series = (text: string) =>
    text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).length;
  const c = { off: median(res.off.c), on: median(res.on.c) };
  const s = { off: median(res.off.s), on: median(res.on.s) };
  const out = [
    `## Process attribution at ${GPUS} GPUs × ${PER_GPU} processes (${rounds} rounds, medians, ms)`,
    "",
    ...table(
      ["", "attribution off", "attribution on", "on ÷ off"],
      [
        ["collection (parse, attribute, store), wall", f2(c.off), f2(c.on), f2(c.on / c.off)],
        [
          "collection, CPU (main thread and libuv pool)",
          f2(cpu.off / rounds),
          f2(cpu.on / rounds),
          f2(cpu.on / cpu.off),
        ],
        ["scrape (render /metrics)", f2(s.off), f2(s.on), f2(s.on / s.off)],
        ["first attributed collection (all files read)", "", f2(first), ""],
      ],
    ),
    "",
    ...table(
      ["series", "attribution off", "attribution on"],
      [
        [
          "gpu_process_memory_used_bytes per GPU",
          f2(count(texts.off, "gpu_process_memory_used_bytes") / GPUS),
          f2(count(texts.on, "gpu_process_memory_used_bytes") / GPUS),
        ],
        ["all series per GPU", f2(series(texts.off) / GPUS), f2(series(texts.on) / GPUS)],
        ["exposition bytes", String(texts.off.length), String(texts.on.length)],
      ],
    ),
  ];
  process.stdout.write(out.join("\n") + "\n");
}

await main();
