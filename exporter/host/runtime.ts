// Wires detection into a running exporter: detect once before the first scrape is served
// (bounded by the request timeouts), read again every --host.detect.refresh-interval, and run
// the interruption poller while the host is spot. A failure keeps the labels as they were and
// logs one line saying why; gpu_exporter_collector_success{collector="host_detect"} shows it.

import type { Host } from "../collect.ts";
import { errorText } from "../collect.ts";
import type { ExporterConfig } from "../config.ts";
import type { Logger } from "../log.ts";
import { createClient, detectHost, detectWith, mergeHostInfo } from "./detect.ts";
import { InterruptionPoller } from "./interruption.ts";
import { baseFor, isProvider, type Provider } from "./options.ts";
import type { HostFacts, ProviderClient } from "./types.ts";

export const DETECT_COLLECTOR = "host_detect";

export interface HostRuntime {
  /** the provider whose metadata service answered (or was named), if any */
  readonly provider: Provider | undefined;
  /** read the metadata again now (the refresh timer does the same) */
  refresh(): Promise<void>;
  /** one interruption poll now; does nothing unless the host is spot */
  poll(): Promise<void>;
  close(): Promise<void>;
}

/** Undefined when detection is off (none, or auto under --simulate without test endpoints). */
export async function startHostRuntime(
  cfg: ExporterConfig,
  host: Host,
  log: Logger,
): Promise<HostRuntime | undefined> {
  const d = cfg.detect;
  if (d.mode === "none") return undefined;
  if (cfg.simulate && d.mode === "auto" && d.endpoints === undefined) {
    log.log(
      "info",
      "--host.detect=auto is off under --simulate (no real metadata address is probed)",
    );
    return undefined;
  }
  const abort = new AbortController();
  const ctx = { detect: d, simulate: cfg.simulate, signal: abort.signal, now: d.now };
  const base = { ...host.info }; // the labels before detection: flags, or the simulated host's
  const named = isProvider(d.mode) ? baseFor(d, d.mode, cfg.simulate) : undefined;
  let client: ProviderClient | undefined =
    isProvider(d.mode) && named !== undefined
      ? createClient(d.mode, {
          base: named,
          timeoutMs: d.timeoutMs,
          signal: abort.signal,
          now: d.now,
        })
      : undefined;
  let facts: HostFacts | undefined;
  let poller: InterruptionPoller | undefined;
  let running: Promise<void> | undefined;

  const apply = async () => {
    const info = mergeHostInfo(base, cfg.host, facts, cfg.simulate);
    Object.assign(host.info, info);
    await host.metrics.setHostInfo(info, host.state.view(Date.now()));
    const spot = info.pricing_model === "spot" && client !== undefined;
    if (spot && !poller && client) {
      poller = new InterruptionPoller({
        client,
        state: host.state,
        intervalMs: d.pollMs,
        log,
        now: d.now,
        onChange: () => host.metrics.publish(host.state.view(Date.now())),
      });
      poller.start();
    } else if (!spot && poller) {
      await poller.stop();
      poller = undefined;
    }
  };

  const run = async (initial: boolean) => {
    const t0 = performance.now();
    const done = (ok: boolean) =>
      host.state.setCollector(DETECT_COLLECTOR, ok, (performance.now() - t0) / 1000);
    const tried: string[] = [];
    try {
      const found = client ? await detectWith(client) : await detectHost(ctx, tried);
      if (abort.signal.aborted) return;
      done(true);
      if (!found) {
        if (initial) {
          log.log("info", "no cloud metadata service answered; keeping the flags' values", {
            tried: tried.join("; "),
          });
        }
      } else {
        client = found.client;
        facts = found.facts;
        if (initial) log.log("info", "host detected from cloud metadata", { ...facts });
      }
    } catch (err) {
      if (abort.signal.aborted) return;
      done(false);
      const fields = { provider: client?.provider ?? d.mode, err: errorText(err) };
      const msg = "host detection failed; keeping the previous values";
      if (initial) log.log("warn", msg, fields);
      else log.limited(`detect:${fields.err}`, "warn", msg, fields);
    }
    await apply();
  };

  const runOnce = (initial: boolean) => {
    running ??= run(initial).finally(() => (running = undefined));
    return running;
  };
  await runOnce(true);
  const timer = setInterval(() => void runOnce(false), d.refreshMs);
  timer.unref();

  return {
    get provider() {
      return client?.provider;
    },
    refresh: () => runOnce(false),
    poll: async () => poller?.poll(),
    async close() {
      clearInterval(timer);
      abort.abort();
      await running;
      await poller?.stop();
    },
  };
}
