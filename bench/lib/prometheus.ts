// Debian's Prometheus as a child process on loopback, scraping a file_sd targets file.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scrapeConfigYaml } from "../../lib/ingest/scrape-config.ts";
import { freePort, start, waitHttp, type Proc } from "./procs.ts";

export const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? "/usr/bin/prometheus";
export const hasPrometheus = existsSync(PROMETHEUS_BIN);
export const RULES_FILE = "deploy/prometheus/gpufleet-rules.yml";

export interface Prom {
  proc: Proc;
  url: string;
}

export async function startPrometheus(
  dir: string,
  targetsFile: string,
  opts: { interval?: string; rules?: boolean } = {},
): Promise<Prom> {
  const work = mkdtempSync(join(dir, "prom-"));
  const config = join(work, "prometheus.yml");
  writeFileSync(
    config,
    scrapeConfigYaml({
      targetFiles: [targetsFile],
      scrapeInterval: opts.interval ?? "15s",
      ...(opts.rules === false ? {} : { ruleFiles: [join(process.cwd(), RULES_FILE)] }),
    }),
  );
  const port = await freePort();
  const proc = start("prometheus", PROMETHEUS_BIN, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${join(work, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`,
    "--log.level=warn",
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(proc, `${url}/-/ready`, 60_000);
  return { proc, url };
}

/** Instant query returning the first sample's value (NaN when empty). */
export async function promValue(url: string, query: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query })}`);
  const body = (await res.json()) as { data?: { result?: Array<{ value: [number, string] }> } };
  return Number(body.data?.result?.[0]?.value[1] ?? Number.NaN);
}

/** Waits until Prometheus has scraped `targets` targets successfully. */
// 1,250 targets took under 2 minutes on the Intel machine of the earlier runs and more than that
// on a slower one (2026-12-02, 2 AMD EPYC cores): the wait is generous, it bounds only a hang
export async function waitScraped(p: Prom, targets: number, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await promValue(p.url, 'count(up{job="gpufleet"} == 1)')) >= targets) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`prometheus did not scrape ${targets} targets in ${timeoutMs} ms`);
}
