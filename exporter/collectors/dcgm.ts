// DCGM source: polls an existing dcgm-exporter's /metrics once per interval and maps its
// series onto the contract. readDcgm does the I/O; parsePrometheusText and mapDcgm are pure.

import { timed, type Host, type Source } from "../collect.ts";
import { mapDcgm } from "../dcgm/map.ts";
import { parsePrometheusText } from "../dcgm/parse-text.ts";
import type { Logger } from "../log.ts";

export interface DcgmOptions {
  url: string;
  intervalMs: number;
  timeoutMs: number;
  log: Logger;
}

export async function readDcgm(url: string, signal: AbortSignal): Promise<string> {
  const res = await fetch(url, { signal, headers: { accept: "text/plain" } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

export class DcgmSource implements Source {
  readonly hosts: Host[];
  private readonly abort = new AbortController();
  private inFlight?: Promise<unknown>;

  constructor(
    private readonly host: Host,
    private readonly opts: DcgmOptions,
  ) {
    this.hosts = [host];
  }

  start(): void {}

  async tick(now: number): Promise<void> {
    const { state } = this.host;
    state.prune(now);
    if (this.inFlight) return; // a slow dcgm-exporter must not pile up requests
    const { url, timeoutMs, log } = this.opts;
    this.inFlight = timed(state, "dcgm", log, async () => {
      const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(timeoutMs)]);
      const text = await readDcgm(url, signal);
      const at = Date.now();
      const { items, warnings } = parsePrometheusText(text);
      for (const w of warnings) log.limited(`dcgm:${w}`, "warn", "skipping dcgm line", { err: w });
      const mapped = mapDcgm(items);
      for (const w of mapped.warnings) {
        log.limited(`dcgm:${w.split(" ")[0] ?? ""}`, "warn", "skipping dcgm value", { err: w });
      }
      const { gpus, mig } = mapped;
      if (gpus.length === 0) throw new Error(`${url}: no GPU series`);
      for (const g of gpus) state.setGpu(g, at);
      state.replaceMig(
        mig,
        at,
        gpus.map((g) => g.uuid),
      );
    }).finally(() => (this.inFlight = undefined));
    await this.inFlight;
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.inFlight;
  }
}
