#!/usr/bin/env node
// A fake nvidia-smi for the exporter's tests. It honours --help-query-gpu, --query-gpu ... -lms,
// --query-compute-apps ... -lms, -q -x and -L, and re-reads a JSON state file on every loop so a
// test can make it hang, exit, print garbage or recover. Each run records its pid in
// $FAKE_NVSMI_PIDS so tests can prove no child outlives the exporter.
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { clearInterval, setInterval } from "node:timers";

const stateFile = process.env.FAKE_NVSMI_STATE;
if (process.env.FAKE_NVSMI_PIDS) {
  writeFileSync(`${process.env.FAKE_NVSMI_PIDS}/${process.pid}`, process.argv.slice(2).join(" "));
}

function state() {
  return JSON.parse(readFileSync(stateFile, "utf8"));
}

function out(text) {
  process.stdout.write(text);
}

function hangForever() {
  setInterval(() => {}, 1 << 30);
}

const args = process.argv.slice(2);
const s = state();

function helpFields(text) {
  const fields = new Set();
  for (const line of text.split("\n")) {
    for (const m of line.matchAll(/"([A-Za-z][A-Za-z0-9_.]*)"/g)) fields.add(m[1]);
  }
  return fields;
}

function value(obj, field) {
  const canonical = field.replace(/^clocks_throttle_reasons\./, "clocks_event_reasons.");
  return obj[field] ?? obj[canonical] ?? "[N/A]";
}

function loop(ms, print) {
  const once = () => {
    const st = state();
    if (st.mode === "exit") process.exit(3);
    if (st.mode === "hang") {
      clearInterval(timer);
      hangForever();
      return;
    }
    if (st.mode === "garbage") out("#!@ garbage, not, csv\n\u0000\u0001 more garbage\n");
    else out(print(st));
  };
  const timer = setInterval(once, ms);
  once();
}

const lms = Number(args[args.indexOf("-lms") + 1] ?? "1000");
const query = args.find((a) => a.startsWith("--query-gpu="));
const apps = args.find((a) => a.startsWith("--query-compute-apps="));

if (s.mode === "hang" && !args.includes("--help-query-gpu")) {
  hangForever();
} else if (s.mode === "exit") {
  process.exit(3);
} else if (args.includes("--help-query-gpu")) {
  out(readFileSync(s.helpFile, "utf8"));
} else if (query) {
  const fields = query.slice("--query-gpu=".length).split(",");
  const valid = helpFields(readFileSync(s.helpFile, "utf8"));
  const bad = fields.find((f) => !valid.has(f));
  if (bad) {
    out(`Field "${bad}" is not a valid field to query.\n\n`);
    process.exit(2);
  }
  loop(lms, (st) => st.gpus.map((g) => fields.map((f) => value(g, f)).join(", ") + "\n").join(""));
} else if (apps) {
  const fields = apps.slice("--query-compute-apps=".length).split(",");
  loop(lms, (st) =>
    (st.processes ?? []).map((p) => fields.map((f) => value(p, f)).join(", ") + "\n").join(""),
  );
} else if (args.includes("-q") && args.includes("-x")) {
  if (!s.xmlFile) process.exit(6);
  out(readFileSync(s.xmlFile, "utf8"));
} else if (args.includes("-L")) {
  out(s.list ?? "");
} else {
  process.stderr.write(`fake nvidia-smi: unsupported arguments ${args.join(" ")}\n`);
  process.exit(1);
}
