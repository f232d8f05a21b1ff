// The work counters' settings (--collector.textfile.directory, --work.scrape*) and their checks.

import { isIP } from "node:net";

export interface WorkConfig {
  /** --collector.textfile.directory; off when undefined */
  textfileDir?: string;
  /** --work.scrape, repeatable: inference servers' /metrics URLs */
  scrape: string[];
  /** each relay request gives up after this (capped at the collection interval) */
  scrapeTimeoutMs: number;
  /** hosts besides loopback that --work.scrape may name */
  allowHosts: string[];
}

export const WORK_DEFAULTS: WorkConfig = { scrape: [], scrapeTimeoutMs: 2000, allowHosts: [] };

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** A problem with the settings, as a message naming the flag; undefined when they are fine. */
export function workProblem(w: WorkConfig): string | undefined {
  if (w.textfileDir !== undefined && w.textfileDir.trim() === "") {
    return "--collector.textfile.directory must not be empty";
  }
  if (!(w.scrapeTimeoutMs > 0)) return "--work.scrape.timeout must be positive";
  const allowed = new Set(w.allowHosts.map((h) => h.toLowerCase()));
  const seen = new Set<string>();
  for (const target of w.scrape) {
    let url: URL | undefined;
    try {
      url = new URL(target);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      return `invalid --work.scrape "${target}" (want http://127.0.0.1:8000/metrics)`;
    }
    if (url.username || url.password) return `--work.scrape "${target}": no credentials in URLs`;
    if (!isLoopback(url.hostname) && !allowed.has(url.hostname.toLowerCase())) {
      return `--work.scrape "${target}": ${url.hostname} is not loopback; allow it with --work.scrape.allow-host=${url.hostname}`;
    }
    if (seen.has(url.href)) return `--work.scrape "${target}" given twice`;
    seen.add(url.href);
  }
  return undefined;
}
