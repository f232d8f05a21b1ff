// Child processes for the benchmark: free loopback ports, spawning with a readiness wait,
// /proc sampling of RSS and CPU time, and killing every child however the bench ends.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  /** last lines of its stdout/stderr, for error reports */
  tail: () => string;
}

const children = new Set<ChildProcess>();

function killAll(signal: NodeJS.Signals): void {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) c.kill(signal);
  }
}

process.on("exit", () => killAll("SIGKILL"));
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    killAll("SIGTERM");
    process.exit(130);
  });
}

/** a port that was free on 127.0.0.1 a moment ago */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function start(
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Child {
  const proc = spawn(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(proc);
  proc.once("exit", () => children.delete(proc));
  let buf = "";
  const keep = (d: Buffer) => {
    buf = (buf + d.toString()).slice(-4000);
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  if (proc.pid === undefined) throw new Error(`${name}: could not start ${cmd}`);
  return { name, proc, pid: proc.pid, tail: () => buf };
}

/** Resolves when `url` answers 200; fails if the child exits or time runs out. */
export async function waitReady(child: Child, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) {
      throw new Error(`${child.name} exited (${child.proc.exitCode}):\n${child.tail()}`);
    }
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${child.name} not ready at ${url} after ${timeoutMs} ms:\n${child.tail()}`);
}

export async function stop(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.proc.once("exit", () => resolve()));
  child.proc.kill("SIGTERM");
  const timer = setTimeout(() => child.proc.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

export interface Usage {
  /** resident set size, bytes */
  rss: number;
  /** user + system CPU time, seconds */
  cpuSeconds: number;
}

/** RSS and CPU time of a process from /proc (Linux). */
export function usage(pid: number): Usage {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  // fields after the parenthesised command name: state is field 3, utime 14, stime 15
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(rest[11] ?? 0) + Number(rest[12] ?? 0);
  return { rss: rssKb * 1024, cpuSeconds: ticks / ticksPerSecond() };
}

/** Resident memory split (Linux smaps_rollup): file-backed pages (the binary, shared) vs anonymous. */
export function residentSplit(pid: number): { rss: number; fileBacked: number; anonymous: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) * 1024;
  const rss = kb("Rss");
  const anonymous = kb("Anonymous");
  return { rss, fileBacked: rss - anonymous, anonymous };
}
