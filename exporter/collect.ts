// node_exporter's rule: every collector run is timed and wrapped, and a failure only turns
// gpu_exporter_collector_success{collector} to 0. Nothing a source does can fail a scrape.

import type { Logger } from "./log.ts";
import type { HostMetrics } from "./metrics.ts";
import type { HostState } from "./state.ts";

export interface Host {
  id: number;
  /** gpu_host_info labels */
  info: Record<string, string>;
  state: HostState;
  metrics: HostMetrics;
}

/** A source of GPU data feeding one or more hosts' state. */
export interface Source {
  readonly hosts: Host[];
  start(): void;
  /** Called every --collect.interval; must not throw. */
  tick(now: number): Promise<void>;
  close(): Promise<void>;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function timed(
  state: HostState,
  collector: string,
  log: Logger,
  run: () => void | Promise<void>,
): Promise<boolean> {
  const t0 = performance.now();
  try {
    await run();
    state.setCollector(collector, true, (performance.now() - t0) / 1000);
    return true;
  } catch (err) {
    state.setCollector(collector, false, (performance.now() - t0) / 1000);
    const text = errorText(err);
    log.limited(`collector:${collector}:${text}`, "warn", "collector failed", {
      collector,
      err: text,
    });
    return false;
  }
}
