// Child processes for nvidia-smi: a long-lived supervised stream (restarted with exponential
// backoff when it exits or is killed) and bounded one-shot runs. Every child is SIGKILLed on
// close and on process exit, so the exporter never leaves an nvidia-smi behind.

import { spawn, type ChildProcess } from "node:child_process";

const live = new Set<ChildProcess>();

/** Last resort for process.on("exit"): kill synchronously whatever is still running. */
export function killAllChildren(): void {
  for (const c of live) c.kill("SIGKILL");
}

export function liveChildCount(): number {
  return live.size;
}

function track(child: ChildProcess): Promise<void> {
  live.add(child);
  return new Promise((resolve) => {
    const done = () => {
      live.delete(child);
      resolve();
    };
    child.once("close", done);
    child.once("error", () => {
      if (child.pid === undefined) done(); // spawn failed: no "close" follows
    });
  });
}

export interface OnceResult {
  stdout: string;
}

/**
 * Run to completion within timeoutMs (SIGKILL after, or when `signal` aborts) and return
 * stdout; rejects on failure.
 */
export function runOnce(
  command: string,
  args: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<OnceResult> {
  if (signal?.aborted) return Promise.reject(new Error("aborted"));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const onAbort = () => {
      failure ??= new Error("aborted");
      child.kill("SIGKILL");
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const closed = track(child);
    const out: Buffer[] = [];
    let err = "";
    let failure: Error | undefined;
    const timer = setTimeout(() => {
      failure = new Error(`${command} ${args.join(" ")}: no answer within ${timeoutMs} ms`);
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => (err = (err + b.toString()).slice(-2000)));
    child.on("error", (e) => (failure ??= e));
    child.on("exit", (code, signal) => {
      if (code !== 0) failure ??= new Error(`${command} exited ${code ?? signal}: ${err.trim()}`);
    });
    void closed.then(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (failure) reject(failure);
      else resolve({ stdout: Buffer.concat(out).toString("utf8") });
    });
  });
}

export interface Line {
  text: string;
  at: number;
}

export interface SupervisedOptions {
  command: string;
  /** Runs before every (re)spawn, e.g. field discovery; a throw counts as a failed start. */
  prepare: () => Promise<string[]>;
  /** Lines that arrived together (one nvidia-smi loop), delivered once per burst. */
  onLines: (lines: Line[]) => void;
  onProblem: (message: string) => void;
  backoffInitialMs: number;
  backoffMaxMs: number;
}

const CLOSE_WAIT_MS = 5000;
const MAX_PARTIAL = 1 << 20; // a "line" longer than this is garbage; drop it

export class Supervised {
  private child?: ChildProcess;
  private closed?: Promise<void>;
  private launching?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private failures = 0;
  private stopped = false;
  private pending: Line[] = [];
  private partial = "";
  spawnedAt?: number;

  constructor(private readonly opts: SupervisedOptions) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  start(): void {
    this.stopped = false;
    this.launchNow();
  }

  private launchNow(): void {
    const p = this.launch().finally(() => {
      if (this.launching === p) this.launching = undefined;
    });
    this.launching = p;
  }

  /** Output was good: the next failure starts the backoff from its initial delay again. */
  markHealthy(): void {
    this.failures = 0;
  }

  /** Kill the child (hung or printing garbage); its exit schedules a restart with backoff. */
  restart(reason: string): void {
    this.opts.onProblem(`restarting: ${reason}`);
    this.child?.kill("SIGKILL");
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.child?.kill("SIGKILL");
    await this.launching; // a discovery run in flight is aborted by its owner, then awaited here
    this.child?.kill("SIGKILL");
    // A process stuck inside the driver (D state) dies only when the driver lets go: do not
    // let it block shutdown forever.
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([this.closed, giveUp]);
    clearTimeout(timer);
  }

  private scheduleRestart(): void {
    if (this.stopped) return;
    const delay = Math.min(this.opts.backoffInitialMs * 2 ** this.failures, this.opts.backoffMaxMs);
    this.failures += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.launchNow(), delay);
  }

  private async launch(): Promise<void> {
    let args: string[];
    try {
      args = await this.opts.prepare();
    } catch (err) {
      this.opts.onProblem(err instanceof Error ? err.message : String(err));
      this.scheduleRestart();
      return;
    }
    if (this.stopped) return;
    const child = spawn(this.opts.command, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    this.spawnedAt = Date.now();
    this.partial = "";
    this.closed = track(child);
    let stderr = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => this.onData(chunk));
    child.stderr?.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-1000)));
    child.on("error", (err) => this.opts.onProblem(`${this.opts.command}: ${err.message}`));
    void this.closed.then(() => {
      if (this.child !== child) return;
      this.child = undefined;
      if (!this.stopped) {
        const why = child.exitCode !== null ? `exit code ${child.exitCode}` : child.signalCode;
        this.opts.onProblem(
          `${this.opts.command} stopped (${why ?? "spawn failed"}) ${stderr.trim()}`,
        );
      }
      this.scheduleRestart();
    });
  }

  private onData(chunk: string): void {
    const at = Date.now();
    const parts = (this.partial + chunk).split("\n");
    this.partial = parts.pop() ?? "";
    if (this.partial.length > MAX_PARTIAL) this.partial = "";
    for (const p of parts) this.pending.push({ text: p.replace(/\r$/, ""), at });
    // One nvidia-smi loop arrives in one or a few chunks: deliver them as one batch.
    if (parts.length > 0 && this.pending.length === parts.length) {
      setImmediate(() => {
        const lines = this.pending;
        this.pending = [];
        if (lines.length > 0) this.opts.onLines(lines);
      });
    }
  }
}
