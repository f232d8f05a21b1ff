// Latency of one endpoint, one request at a time, and load with many clients (autocannon).
import { request } from "node:http";
import autocannon from "autocannon";
import { percentile } from "./stats.ts";

export interface Latency {
  p50: number;
  p95: number;
  n: number;
  bytes: number;
  /** requests that failed or timed out; counted in the percentiles at the time they took */
  errors: number;
}

export async function sequentialLatency(
  url: string,
  n: number,
  warmup = 3,
  timeoutMs = 120_000,
  headers: Record<string, string> = {},
): Promise<Latency> {
  let bytes = Number.NaN;
  let errors = 0;
  const times: number[] = [];
  for (let i = 0; i < warmup + n; i++) {
    const t0 = performance.now();
    let ok = false;
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      const body = await res.arrayBuffer();
      ok = res.ok;
      if (ok) bytes = body.byteLength;
    } catch {
      ok = false;
    }
    if (i < warmup) continue;
    times.push(performance.now() - t0);
    if (!ok) errors++;
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), n, bytes, errors };
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
): Promise<Load> {
  const r = await autocannon({
    url,
    headers,
    duration: seconds,
    connections,
    pipelining: 1,
    timeout: 30,
  });
  return {
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** The bytes of one answer as sent to a client that takes gzip (not decompressed). */
export function wireBytes(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, "accept-encoding": "gzip" } }, (res) => {
      let n = 0;
      res.on("data", (c: Buffer) => (n += c.length));
      res.on("end", () => resolve(res.statusCode === 200 ? n : Number.NaN));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(120_000, () => req.destroy(new Error("timeout")));
    req.end();
  });
}
