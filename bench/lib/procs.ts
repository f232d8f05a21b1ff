// Child processes for the benchmarks: each in its own process group (Next's server forks, and a
// group kill is the only way to leave nothing behind), all killed however the bench ends.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  /** the last lines it printed, for error reports */
  tail(): string;
  /** resolves once it exited */
  exited: Promise<void>;
}

const running = new Set<Proc>();

function killGroup(p: Proc, signal: NodeJS.Signals): void {
  try {
    process.kill(-p.pid, signal);
  } catch {
    /* already gone */
  }
}

process.on("exit", () => {
  for (const p of running) killGroup(p, "SIGKILL");
});
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(sig, () => {
    for (const p of running) killGroup(p, "SIGTERM");
    process.exit(130);
  });

export function start(
  name: string,
  cmd: string,
  args: string[],
  /** added to this process's environment; `undefined` removes a variable */
  env: Record<string, string | undefined> = {},
): Proc {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
  };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  const child = spawn(cmd, args, {
    env: merged,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`${name}: could not start ${cmd}`);
  let buf = "";
  const keep = (d: Buffer) => {
    buf = (buf + d.toString()).slice(-6000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const p: Proc = { name, child, pid: child.pid, tail: () => buf, exited };
  running.add(p);
  void exited.then(() => running.delete(p));
  return p;
}

/** SIGTERM to the whole group, SIGKILL after 5 s. */
export async function stop(p: Proc | undefined): Promise<void> {
  if (!p || !running.has(p)) return;
  killGroup(p, "SIGTERM");
  const timer = setTimeout(() => killGroup(p, "SIGKILL"), 5000);
  await p.exited;
  clearTimeout(timer);
  killGroup(p, "SIGKILL"); // grandchildren that ignored SIGTERM
}

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

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves when `url` answers 2xx; fails early if the process exits. */
export async function waitHttp(p: Proc, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited:\n${p.tail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await sleep(250);
  }
  throw new Error(`${p.name}: ${url} not ready in ${timeoutMs} ms:\n${p.tail()}`);
}

let ticks: number | undefined;
function clockTicks(): number {
  ticks ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  return ticks;
}

/** User + system CPU seconds of every live process in `pid`'s process group (Linux /proc). */
export function groupCpuSeconds(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // after the command: state(0) ppid(1) pgrp(2) … utime(11) stime(12)
      if (Number(f[2]) === pgid) total += Number(f[11] ?? 0) + Number(f[12] ?? 0);
    } catch {
      /* exited meanwhile */
    }
  }
  return total / clockTicks();
}
