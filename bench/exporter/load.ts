// One autocannon run against a /metrics URL, reduced to the figures the report prints.
import autocannon from "autocannon";

export interface LoadResult {
  p50Ms: number;
  p99Ms: number;
  reqPerSec: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export async function hammer(
  url: string,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const r = await autocannon({ url, duration: seconds, connections, pipelining: 1 });
  return {
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    reqPerSec: r.requests.average,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** body size and sample count (non-comment lines) of one scrape */
export async function scrapeShape(url: string): Promise<{ bytes: number; series: number }> {
  const text = await (await fetch(url)).text();
  const series = text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).length;
  return { bytes: Buffer.byteLength(text), series };
}
