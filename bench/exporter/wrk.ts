// The load generator: wrk (C, its own threads) where installed, else autocannon in this process.
// Both give requests/s and p50/p99 latency for a fixed number of connections and seconds.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { TASKSET } from "./pin.ts";

export const WRK = "/usr/bin/wrk";

export interface LoadResult {
  tool: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  seconds: number;
  connections: number;
  headers: Record<string, string>;
  /** CPU list to run wrk on (taskset), where pinning applies */
  cpu?: string;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function duration(text: string | undefined, what: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? "");
  if (!m?.[1] || !m[2]) throw new Error(`wrk output: cannot read ${what} from "${text}"`);
  return Number(m[1]) * (UNIT_MS[m[2]] ?? NaN);
}

/** Reads `wrk --latency` output; throws on output it does not recognise. */
export function parseWrk(out: string): Omit<LoadResult, "tool"> {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(out)?.[1];
  const total = /^\s*(\d+) requests in/m.exec(out)?.[1];
  if (rps === undefined || total === undefined) throw new Error(`unexpected wrk output:\n${out}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    reqPerSec: Number(rps),
    p50Ms: duration(/^\s+50%\s+(\S+)/m.exec(out)?.[1], "p50"),
    p99Ms: duration(/^\s+99%\s+(\S+)/m.exec(out)?.[1], "p99"),
    requests: Number(total),
    errors: socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

export const haveWrk = (): boolean => existsSync(WRK);

export async function load(o: LoadOptions): Promise<LoadResult> {
  if (haveWrk()) {
    // one wrk thread: on a small machine the second core is left to the server under test
    const args = ["-t1", `-c${o.connections}`, `-d${o.seconds}s`, "--latency"];
    for (const [k, v] of Object.entries(o.headers)) args.push("-H", `${k}: ${v}`);
    const [cmd, argv] = o.cpu
      ? [TASKSET, ["-c", o.cpu, WRK, ...args, o.url]]
      : [WRK, [...args, o.url]];
    const { stdout } = await promisify(execFile)(cmd, argv, {
      timeout: (o.seconds + 30) * 1000,
    });
    return { tool: "wrk", ...parseWrk(stdout) };
  }
  const r = await autocannon({
    url: o.url,
    duration: o.seconds,
    connections: o.connections,
    headers: o.headers,
  });
  return {
    tool: "autocannon",
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
