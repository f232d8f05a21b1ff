import { parseExposition } from "./exposition.ts";
import { snapshotFromSamples, type HostSnapshot } from "./snapshot.ts";
import { workFromSamples, type WorkRead } from "./work-counters.ts";

export type ScrapeResult =
  | {
      ok: true;
      url: string;
      snapshot: HostSnapshot;
      durationMs: number;
      invalidLines: number;
      /** the work counters it served (issue 28); absent where the scrape was not read for them */
      work?: WorkRead;
    }
  | { ok: false; url: string; error: string; durationMs: number };

/**
 * A keep-alive connection the exporter closed while it sat in the pool fails the next request on it
 * before any answer (ECONNRESET, "other side closed"). Like Go's HTTP transport under Prometheus,
 * a scrape (an idempotent GET) is then tried once more on a new connection, within its deadline.
 */
const STALE_SOCKET = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]);

export async function scrapeOne(url: string, timeoutMs: number): Promise<ScrapeResult> {
  const started = performance.now();
  const first = await scrapeOnce(url, timeoutMs, timeoutMs, started);
  const left = Math.floor(timeoutMs - (performance.now() - started));
  if (first.ok || !first.staleSocket || left <= 0) return strip(first);
  return strip(await scrapeOnce(url, left, timeoutMs, started));
}

type Attempt = ScrapeResult & { staleSocket?: boolean };

function strip(r: Attempt): ScrapeResult {
  if (r.ok) return r;
  return { ok: false, url: r.url, error: r.error, durationMs: r.durationMs };
}

async function scrapeOnce(
  url: string,
  budgetMs: number,
  timeoutMs: number,
  started: number,
): Promise<Attempt> {
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(budgetMs),
      headers: { accept: "text/plain;version=0.0.4" },
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { ok: false, url, error: `HTTP ${res.status}`, durationMs: elapsed() };
    }
    const text = await res.text();
    const parsed = parseExposition(text);
    const snapshot = snapshotFromSamples(parsed.samples);
    if (!snapshot.info && snapshot.gpus.length === 0) {
      return {
        ok: false,
        url,
        error: "not a gpufleet exporter: no gpu_host_info and no GPU series",
        durationMs: elapsed(),
      };
    }
    const work = workFromSamples(parsed.samples);
    return { ok: true, url, snapshot, durationMs: elapsed(), invalidLines: parsed.invalid, work };
  } catch (e) {
    const err = e as Error;
    const msg = err.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : describe(err);
    return {
      ok: false,
      url,
      error: msg,
      durationMs: elapsed(),
      staleSocket: STALE_SOCKET.has(msg),
    };
  }
}

function describe(err: Error): string {
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}

/** Scrapes every URL with at most `concurrency` requests in flight; never rejects. */
export async function scrapeAll(
  urls: string[],
  opts: { concurrency: number; timeoutMs: number },
): Promise<ScrapeResult[]> {
  const results: ScrapeResult[] = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const url = urls[i];
      if (url === undefined) return;
      results[i] = await scrapeOne(url, opts.timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, urls.length) }, worker));
  return results;
}
