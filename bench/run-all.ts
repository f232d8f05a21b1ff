// `npm run bench [-- --quick] [-- --only=a,b]`: every gpufleet benchmark in turn (first-load JS,
// collector CPU, fleet API + page + load, the fleet at 100,000 synthetic GPUs, then writes under
// load on SQLite and PostgreSQL and a year of ledger on PostgreSQL), printed as markdown and
// written to bench/README.md. Loopback only, every child killed on exit; nothing is asserted.
// `--quick` runs each for a fraction of the time. The last two are their own scripts
// (`bench:load`, `bench:ledger-year`: each prints its goals and writes its section, kept below);
// the exporter's goals are `npm run bench:exporter`'s.
import { spawnSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { format } from "prettier";
import * as collector from "./collector-cpu.ts";
import * as fleet from "./fleet.ts";
import * as synthetic from "./fleet-synthetic.ts";
import { runFirstLoadBench } from "./first-load.ts";
import type { Goal, Section } from "./lib/stats.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    out: { type: "string", default: "bench/README.md" },
  },
});
const quick = values.quick;
const only = new Set(
  (values.only ?? "first-load,collector,fleet,synthetic,load,ledger-year").split(","),
);
const started = new Date();
const sections: Section[] = [];

if (only.has("first-load")) sections.push(runFirstLoadBench());
if (only.has("collector"))
  sections.push(await collector.runCollectorBench(quick ? collector.QUICK : collector.FULL));
if (only.has("fleet"))
  sections.push(...(await fleet.runFleetBench(quick ? fleet.QUICK : fleet.FULL)));
if (only.has("synthetic"))
  sections.push(await synthetic.runSyntheticBench(quick ? synthetic.QUICK : synthetic.FULL));

/** A bench that is its own script: it prints its goals and writes its own README section. */
function runScript(script: string, args: string[]): void {
  const r = spawnSync("npm", ["run", "-s", script, "--", ...args], { stdio: "inherit" });
  if (r.status !== 0) console.error(`bench: ${script} exited with ${r.status ?? r.signal}`);
}
if (only.has("load"))
  runScript("bench:load", [`--out=${values.out}`, ...(quick ? ["--quick"] : [])]);
// 10,000 GPUs × 60 days (about 16 million ledger rows, ~5 GB): the longest part of the run
if (only.has("ledger-year"))
  runScript("bench:ledger-year", quick ? ["--gpus=1000", "--days=31", "--runs=2"] : []);

/**
 * Sections other benches write into the same file (their own npm scripts, not run here): kept as
 * they are, so `npm run bench` does not erase their figures.
 */
const KEPT = [
  "## Exporter (",
  "## Price-list import",
  "## Billing import",
  "## Load: concurrent clients",
  "## Load: what limited writes",
  "## Prometheus at 100,000 GPUs",
  "## A year of ledger",
];
function keptSections(file: string): string[] {
  if (!existsSync(file)) return [];
  const parts = readFileSync(file, "utf8").split(/\n(?=## )/);
  return parts.filter((p) => KEPT.some((k) => p.startsWith(k))).map((p) => p.trimEnd() + "\n");
}

const goals: Goal[] = sections.flatMap((s) => s.goals);
function verdict(g: Goal): string {
  if (g.met === null) return g.reason ? `not measured: ${g.reason}` : "not measured";
  return g.met ? "met" : `**not met**${g.reason ? `: ${g.reason}` : ""}`;
}
const cpu = cpus()[0]?.model ?? "unknown CPU";
const raw = [
  "# gpufleet benchmarks",
  "",
  `Written by \`npm run bench${quick ? " -- --quick" : ""}\` on ${started.toISOString().slice(0, 16)}Z: ` +
    `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. ` +
    "Everything on 127.0.0.1; simulated exporters; the simulator, Prometheus, the app, Chromium " +
    "and the load generator share these cores, so figures vary by 20–50 % between runs; nothing " +
    "asserted. " +
    "`npm run bench:exporter` measures the exporter itself.",
  "",
  "## Goals",
  "",
  "| goal | measured | met |",
  "|---|---:|:---:|",
  ...goals.map((g) => `| ${g.goal} | ${g.figure} | ${verdict(g)} |`),
  "",
  ...sections.flatMap((s) => [`## ${s.title}`, "", ...s.lines, ""]),
  ...keptSections(values.out),
].join("\n");
// formatted as `npm test`'s prettier check expects, so the written file can be committed as is
const md = await format(raw, { parser: "markdown", printWidth: 100 });
console.log(md);
writeFileSync(values.out, md);
console.error(`bench: wrote ${values.out}`);
process.exit(0);
