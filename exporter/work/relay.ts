// --work.scrape=http://127.0.0.1:8000/metrics: reads a local inference server's /metrics once per
// collection tick and maps its own counters (contract WORK_COUNTERS) to gpufleet_work_units_total
// with job=<host:port of the server>. Only loopback targets, or hosts named by
// --work.scrape.allow-host, are accepted (config.ts). Each request has a timeout and a body cap; a
// server that is down, hung, too large or answering an error is counted and leaves the others and
// the GPU metrics as they are. Counter resets (a restarted server) pass through as resets.

import {
  MAX_WORK_SERIES,
  ErrorCounts,
  seriesKey,
  type WorkPart,
  type WorkSeries,
} from "./series.ts";
import { mapServerMetrics } from "./parse.ts";

/** A /metrics page larger than this is refused (vLLM's is ~100 KiB with every histogram). */
export const MAX_RELAY_BYTES = 8 * 1024 * 1024;

export interface RelayOptions {
  targets: readonly string[];
  timeoutMs: number;
  /** stops requests in flight when the exporter closes */
  signal?: AbortSignal;
}

class RelayError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

async function readCapped(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RELAY_BYTES) {
      await reader.cancel();
      throw new RelayError("too_large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The job label of a target: its host and port, as Prometheus names an instance. */
export function targetJob(target: string): string {
  const url = new URL(target);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

async function fetchPage(target: string, timeoutMs: number, outer?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = outer ? AbortSignal.any([timeout, outer]) : timeout;
  try {
    const res = await fetch(target, {
      signal,
      redirect: "manual",
      headers: { accept: "text/plain;version=0.0.4" },
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new RelayError("http_status");
    }
    if (Number(res.headers.get("content-length") ?? 0) > MAX_RELAY_BYTES) {
      await res.body?.cancel();
      throw new RelayError("too_large");
    }
    return await readCapped(res);
  } catch (err) {
    if (err instanceof RelayError) throw err;
    if (err instanceof Error && err.name === "TimeoutError") throw new RelayError("timeout");
    throw new RelayError("down");
  }
}

export class WorkRelay {
  readonly errors = new ErrorCounts();

  constructor(readonly opts: RelayOptions) {}

  /** One tick: every target at once; never throws. */
  async collect(): Promise<WorkPart> {
    const pages = await Promise.all(
      this.opts.targets.map(async (target) => {
        try {
          return { target, text: await fetchPage(target, this.opts.timeoutMs, this.opts.signal) };
        } catch (err) {
          this.errors.add(err instanceof RelayError ? err.reason : "down");
          return { target, text: undefined };
        }
      }),
    );
    const series: WorkSeries[] = [];
    const seen = new Set<string>();
    const targets: { target: string; up: boolean }[] = [];
    for (const { target, text } of pages) {
      targets.push({ target, up: text !== undefined });
      if (text === undefined) continue;
      const r = mapServerMetrics(text, targetJob(target));
      if (r.invalidLines > 0) this.errors.add("parse", r.invalidLines);
      for (const s of r.series) {
        const key = seriesKey(s);
        if (seen.has(key)) this.errors.add("duplicate");
        else if (series.length >= MAX_WORK_SERIES) this.errors.add("too_many_series");
        else {
          seen.add(key);
          series.push(s);
        }
      }
    }
    return { collector: "relay", series, errors: this.errors.counts, targets };
  }
}
